import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import os from "node:os";

/**
 * Password hashes, given to better-auth in place of its own, with two things it does not do: a
 * short line in front of the hashing, so a flood of sign-ins cannot fill the thread pool that also
 * reads the shop's files and compresses its pages, and a constant-time comparison.
 *
 * The format and the parameters are exactly better-auth 1.7's (`@better-auth/utils/password`), so
 * hashes stored by either verify with the other: scrypt over the password in Unicode NFKC, N =
 * 16384, r = 16, p = 1, a 64-byte key; stored as `salt:key`, where the salt is 16 random bytes
 * written in hex and that hex text (not the bytes) is what scrypt salts with. node:crypto's async
 * scrypt runs on libuv's thread pool, never on the event loop.
 */
export const SCRYPT = { N: 16_384, r: 16, p: 1, keyLength: 64, saltBytes: 16 } as const;
const MAX_MEMORY = 128 * SCRYPT.N * SCRYPT.r * 2;

/**
 * At most `running` hashes at once, at most `waiting` more in line; past that a hash is refused at
 * once. Two at most, so that two of libuv's four threads stay free for reading files and
 * compressing pages, and one core is always left to the event loop (one hash at a time on two
 * cores). A place in the line is given back no sooner than `spacingMs` after its hash began, so
 * hashing never takes more than a share of a core (a hash is 50–120 ms): at most
 * running × 1000 / spacingMs hashes a second.
 */
export interface HashingLine {
  running: number;
  waiting: number;
  spacingMs: number;
}
export const HASHING_LINE: Readonly<HashingLine> = {
  running: Math.max(1, Math.min(2, os.availableParallelism() - 1)),
  waiting: 8,
  spacingMs: 200,
};
/** What a refusal because the line is full tells the browser to wait: the line empties quickly. */
export const HASHING_BUSY_RETRY_SECONDS = 2;

/**
 * A test bench's hashing (QUICK_PASSWORD_HASHES): scrypt at N = 1024, r = 4 (about 3 ms a hash
 * on a test machine, against 116 ms at the shop's cost), and no spacing, since such hashes cannot
 * take a core. The tests of the sign-in's rules need many sign-ins, not costly ones.
 */
export const QUICK_SCRYPT: Readonly<ScryptCost> = { N: 1024, r: 4 };
export const QUICK_HASHING_LINE: Readonly<HashingLine> = { ...HASHING_LINE, spacingMs: 0 };

/** The line in front of the hashing is full: nothing was hashed. */
export class HashingBusy extends Error {
  override name = "HashingBusy";
  constructor() {
    super("Demasiadas contraseñas por comprobar a la vez.");
  }
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(input: { hash: string; password: string }): Promise<boolean>;
  /** Whether a hash asked for now would be refused. */
  isFull(): boolean;
  /** Runs a job in the line the hashes wait in (each hash is one such job); HashingBusy when full. */
  run<T>(job: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` with every hash it asks for put at the head of the line, even a full one: for a
   * device the owner signed in from before (decision 32), which a flood must not hold back.
   * Few such sign-ins ever run at once, so the line stays bounded.
   */
  first<T>(work: () => Promise<T>): Promise<T>;
}

/** Set while a known device's sign-in runs: its hashes go first. */
const headOfLine = new AsyncLocalStorage<true>();

/** scrypt's work factors: the shop's are SCRYPT's; a test bench may ask for less (`createPasswordHasher`). */
export interface ScryptCost {
  N: number;
  r: number;
}

function deriveKey(password: string, salt: string, cost: ScryptCost = SCRYPT): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize("NFKC"),
      salt,
      SCRYPT.keyLength,
      { N: cost.N, r: cost.r, p: SCRYPT.p, maxmem: MAX_MEMORY },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** A new salted hash of the password (no line: see createPasswordHasher). */
export async function hashPassword(password: string, cost: ScryptCost = SCRYPT): Promise<string> {
  const salt = randomBytes(SCRYPT.saltBytes).toString("hex");
  return `${salt}:${(await deriveKey(password, salt, cost)).toString("hex")}`;
}

const STORED = /^([0-9a-f]+):([0-9a-f]{128})$/;

/**
 * Whether the password matches a stored hash. A stored value that is not a hash matches nothing
 * (after the same work, so it takes as long as any other answer).
 */
export async function verifyPassword(
  stored: string,
  password: string,
  cost: ScryptCost = SCRYPT,
): Promise<boolean> {
  const parts = STORED.exec(stored);
  const salt = parts?.[1] ?? "0".repeat(SCRYPT.saltBytes * 2);
  const derived = await deriveKey(password, salt, cost);
  if (!parts?.[2]) return false;
  return timingSafeEqual(derived, Buffer.from(parts[2], "hex"));
}

/**
 * `cost`: scrypt's work factors, the shop's unless given. Only a test bench gives less, for tests of
 * the sign-in's rules, not of the hash: what one such hasher stores only it can verify.
 */
export function createPasswordHasher(
  line: HashingLine = HASHING_LINE,
  cost: ScryptCost = SCRYPT,
): PasswordHasher {
  let running = 0;
  const waiting: (() => void)[] = [];

  function release() {
    const next = waiting.shift();
    // The slot passes straight to the next in line; with nobody waiting it is free.
    if (next) next();
    else running--;
  }

  async function run<T>(job: () => Promise<T>): Promise<T> {
    if (running < line.running) running++;
    else if (headOfLine.getStore()) await new Promise<void>((resolve) => waiting.unshift(resolve));
    else if (waiting.length < line.waiting) await new Promise<void>((resolve) => waiting.push(resolve));
    else throw new HashingBusy();
    const started = performance.now();
    try {
      return await job();
    } finally {
      // The caller has its answer at once; the place waits out the rest of the spacing.
      const rest = started + line.spacingMs - performance.now();
      if (rest > 0) setTimeout(release, rest).unref();
      else release();
    }
  }

  return {
    hash: (password) => run(() => hashPassword(password, cost)),
    verify: ({ hash, password }) => run(() => verifyPassword(hash, password, cost)),
    isFull: () => running >= line.running && waiting.length >= line.waiting,
    run,
    first: (work) => headOfLine.run(true, work),
  };
}
