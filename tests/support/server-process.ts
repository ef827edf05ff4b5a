import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export interface RunningServer {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Whether it hashes passwords the test bench's quick way (QUICK_PASSWORD_HASHES, on by default here). */
  quickPasswordHashes: boolean;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Kills the process with SIGKILL (no shutdown, nothing finished) and resolves once it is gone. */
  kill(): Promise<void>;
}

/** A server process that may still be starting: for tests that kill it during its start-up work. */
export interface LaunchedServer {
  child: ChildProcess;
  output(): string;
  /** Resolves once the server prints its address; rejects if it exits first or takes too long. */
  ready: Promise<RunningServer>;
  /** Kills the process with SIGKILL, started or not, and resolves once it is gone. */
  kill(): Promise<void>;
}

export function assertBuilt(): void {
  if (!fs.existsSync(path.join(root, "build/server/index.js"))) {
    throw new Error("These tests run the production build: run `npm run build` first (npm test does).");
  }
}

/** Demo art drawn by the test servers, kept between runs (content-addressed: see art-cache.server.ts). */
export const DEMO_ART_CACHE_DIR = path.join(root, ".tmp/demo-art");

/** The servers' session secret: it also encrypts the administrators' second-factor secrets. */
export const TEST_SESSION_SECRET = "test-session-secret-0123456789abcdef";

export function baseEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  // Only what a fresh machine would have, plus the test's settings.
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ENV_FILE: "",
    HOST: "127.0.0.1",
    PORT: "0",
    LOG_REQUESTS: "false",
    // Tests send many requests from one address; the limits have their own tests.
    REQUEST_LIMITS: "false",
    CHECKOUT_CHALLENGE: "false",
    // Pages render in line: a render thread per test server would cost each start a second of
    // CPU. tests/server/page-cache.test.ts and the browser tests run with it.
    PAGE_RENDER_THREAD: "false",
    // PostgreSQL and HTTPS shops require one; tests that check the refusal set it to "".
    SESSION_SECRET: TEST_SESSION_SECRET,
    // A demo shop's images are drawn once per content and copied on every later first start
    // (tests/db/demo-seed.db.test.ts and the first-start benchmark draw them for real).
    DEMO_ART_CACHE: DEMO_ART_CACHE_DIR,
    // Sign-ins at a small fraction of scrypt's cost (about 3 ms a hash instead of 116): tests of
    // the hashing line and of floods set it to "false" (login-flood, owner-door), and a public
    // HTTPS shop refuses it, so those hash at the shop's cost.
    QUICK_PASSWORD_HASHES: env.PUBLIC_URL?.startsWith("https://") ? "false" : "true",
    ...env,
  };
}

/** Starts `node server.js` and waits for it to print its address. */
export async function startServer(env: Record<string, string>, timeoutMs = 90_000): Promise<RunningServer> {
  return launchServer(env, timeoutMs).ready;
}

/** Spawns `node server.js` without waiting: `ready` says when it listens. */
export function launchServer(env: Record<string, string>, timeoutMs = 90_000): LaunchedServer {
  assertBuilt();
  // NODE_EXEC_ARGS: options for node itself that NODE_OPTIONS does not take (e.g. --cpu-prof).
  const execArgs = env.NODE_EXEC_ARGS ? env.NODE_EXEC_ARGS.split(" ") : [];
  const fullEnv = baseEnv(env);
  const child = spawn(process.execPath, [...execArgs, "server.js"], { cwd: root, env: fullEnv });
  let out = "";
  const collect = (chunk: Buffer) => {
    out += chunk.toString();
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  };

  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), timeoutMs);
    const check = () => {
      const match = out.match(/Tienda lista en (http:\/\/[^\s"]+)/);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on("data", check);
    child.on("exit", () => {
      clearTimeout(timer);
      reject(new Error(`server exited before starting:\n${out}`));
    });
  }).then(
    (url): RunningServer => ({
      url,
      child,
      output: () => out,
      quickPasswordHashes: fullEnv.QUICK_PASSWORD_HASHES === "true",
      async stop() {
        if (child.exitCode === null) child.kill("SIGTERM");
        return exited;
      },
      kill,
    }),
  );
  // A test that kills the server before it listens does not wait for `ready`.
  ready.catch(() => {});
  return { child, output: () => out, ready, kill };
}

/** Runs `node server.js` expecting it to refuse to start; returns its exit code and output. */
export async function failedStart(
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  assertBuilt();
  const child = spawn(process.execPath, ["server.js"], { cwd: root, env: baseEnv(env) });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stderr, stdout };
}
