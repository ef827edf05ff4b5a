import { hashPassword as libraryHash, verifyPassword as libraryVerify } from "better-auth/crypto";
import { describe, expect, it } from "vitest";
import {
  createPasswordHasher,
  HASHING_LINE,
  HashingBusy,
  hashPassword,
  QUICK_HASHING_LINE,
  QUICK_SCRYPT,
  verifyPassword,
} from "./password-hashing.server";

const PASSWORD = "una contraseña bastante larga";

describe("password hashes", () => {
  it("keep better-auth's format: hashes stored by the library verify with ours, and ours with the library", async () => {
    const stored = await libraryHash(PASSWORD);
    expect(await verifyPassword(stored, PASSWORD)).toBe(true);
    expect(await verifyPassword(stored, `${PASSWORD}!`)).toBe(false);

    const ours = await hashPassword(PASSWORD);
    // 16-byte salt : 64-byte key, both hex, like the library's.
    expect(ours).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(await libraryVerify({ hash: ours, password: PASSWORD })).toBe(true);
    expect(await libraryVerify({ hash: ours, password: "otra contraseña larga" })).toBe(false);
    expect(await hashPassword(PASSWORD)).not.toBe(ours);
  });

  it("read the password in Unicode NFKC, as the library does", async () => {
    // The same ñ typed as one character or as n plus a combining tilde.
    const composed = "contraseña de la tienda";
    const decomposed = composed.normalize("NFD");
    expect(decomposed).not.toBe(composed);
    expect(await verifyPassword(await libraryHash(composed), decomposed)).toBe(true);
  });

  it("a stored value that is not a hash matches nothing (and throws nothing)", async () => {
    for (const stored of ["", "sin-dos-puntos", "abcd:1234", `${"0".repeat(32)}:${"z".repeat(128)}`]) {
      expect(await verifyPassword(stored, PASSWORD), stored).toBe(false);
    }
  });

  it("a test bench's quick hashes (QUICK_PASSWORD_HASHES) are far cheaper, and verify only where they were made", async () => {
    const quick = createPasswordHasher(QUICK_HASHING_LINE, QUICK_SCRYPT);
    const shop = createPasswordHasher();
    const timed = async (hash: () => Promise<string>) => {
      const started = performance.now();
      return { stored: await hash(), ms: performance.now() - started };
    };
    // The quickest of three, so a busy test machine's pause cannot make one quick hash look slow.
    const quickRuns = [];
    for (let i = 0; i < 3; i++) quickRuns.push(await timed(() => quick.hash(PASSWORD)));
    const stored = quickRuns[0]?.stored ?? "";
    expect(await quick.verify({ hash: stored, password: PASSWORD })).toBe(true);
    expect(await quick.verify({ hash: stored, password: `${PASSWORD}!` })).toBe(false);
    // The shop's hashing reads the same format, but its cost does not match: the password fails.
    expect(await shop.verify({ hash: stored, password: PASSWORD })).toBe(false);
    const full = await timed(() => hashPassword(PASSWORD));
    expect(Math.min(...quickRuns.map((r) => r.ms)) * 5).toBeLessThan(full.ms);
  });
});

describe("the line in front of the hashing", () => {
  it("runs at most two hashes at once, keeps a short line and refuses the next at once", async () => {
    const hasher = createPasswordHasher({ ...HASHING_LINE, spacingMs: 0 });
    let active = 0;
    let most = 0;
    let started = 0;
    const releases: (() => void)[] = [];
    const job = () =>
      hasher.run(async () => {
        started++;
        active++;
        most = Math.max(most, active);
        await new Promise<void>((resolve) => releases.push(resolve));
        active--;
      });
    const capacity = HASHING_LINE.running + HASHING_LINE.waiting;
    const accepted = Array.from({ length: capacity }, job);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toBe(HASHING_LINE.running);
    expect(hasher.isFull()).toBe(true);

    // The line is full: refused without running anything, hashes included.
    await expect(job()).rejects.toBeInstanceOf(HashingBusy);
    await expect(hasher.hash(PASSWORD)).rejects.toBeInstanceOf(HashingBusy);
    await expect(hasher.verify({ hash: "x:y", password: PASSWORD })).rejects.toBeInstanceOf(HashingBusy);
    expect(started).toBe(HASHING_LINE.running);

    // As each one finishes the next in line starts; never more than two at once.
    while (releases.length > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(accepted);
    expect(started).toBe(capacity);
    expect(most).toBe(HASHING_LINE.running);
    expect(HASHING_LINE.running).toBeLessThanOrEqual(2);
    expect(hasher.isFull()).toBe(false);
    // A failing job gives its place back too.
    await expect(hasher.run(() => Promise.reject(new Error("falla")))).rejects.toThrow("falla");
    expect(await hasher.verify({ hash: await hasher.hash(PASSWORD), password: PASSWORD })).toBe(true);
  });

  it("spaces hashes out, so hashing never takes a whole core however long the line stays full", async () => {
    const hasher = createPasswordHasher({ running: 1, waiting: 8, spacingMs: 100 });
    const starts: number[] = [];
    const t0 = performance.now();
    // Jobs that take no time: the spacing alone paces them.
    await Promise.all(
      Array.from({ length: 4 }, () => hasher.run(async () => starts.push(performance.now() - t0))),
    );
    for (let i = 1; i < starts.length; i++) {
      expect((starts[i] ?? 0) - (starts[i - 1] ?? 0)).toBeGreaterThanOrEqual(95);
    }
    // The caller does not wait for the spacing: only the next in line does.
    const alone = createPasswordHasher({ running: 1, waiting: 0, spacingMs: 10_000 });
    const before = performance.now();
    await alone.run(async () => {});
    expect(performance.now() - before).toBeLessThan(1_000);
    await expect(alone.run(async () => {})).rejects.toBeInstanceOf(HashingBusy);
  });

  it("real hashes: the one past the line is refused before any of the others is done", async () => {
    const hasher = createPasswordHasher({ running: 2, waiting: 2, spacingMs: 0 });
    const done: string[] = [];
    const accepted = Array.from({ length: 4 }, (_, i) =>
      hasher.hash(`${PASSWORD} ${i}`).then(() => done.push(`hash ${i}`)),
    );
    const refused = hasher.hash(PASSWORD).catch((error: unknown) => {
      done.push("refused");
      throw error;
    });
    await expect(refused).rejects.toBeInstanceOf(HashingBusy);
    await Promise.all(accepted);
    expect(done[0]).toBe("refused");
    expect(done).toHaveLength(5);
  });
});
