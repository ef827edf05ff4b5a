import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { describe, expect, it, vi } from "vitest";
import { createProofOfWork, PROOF_OF_WORK } from "./proof-of-work.server";

vi.setConfig({ testTimeout: 60_000 });

/** A once() that remembers, as the request limits' store does across servers. */
function memoryOnce() {
  const seen = new Set<string>();
  return async (key: string) => {
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
}

async function solved(pow: ReturnType<typeof createProofOfWork>) {
  const challenge = await pow.challenge();
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error("not solved");
  return {
    challenge,
    solution,
    header: Buffer.from(JSON.stringify({ challenge, solution })).toString("base64"),
  };
}

describe("the checkout's proof of work", () => {
  it("costs real computing: the answer is a counter in the server's range, each try a PBKDF2 of 1000 rounds", async () => {
    const pow = createProofOfWork("secreto", memoryOnce());
    const { challenge, solution, header } = await solved(pow);
    expect(challenge.parameters.cost).toBe(PROOF_OF_WORK.cost);
    expect(solution.counter).toBeGreaterThanOrEqual(PROOF_OF_WORK.counterMin);
    expect(solution.counter).toBeLessThanOrEqual(PROOF_OF_WORK.counterMax);
    expect(await pow.verify(header)).toEqual({ ok: true });
  });

  it("a solution serves one checkout only", async () => {
    const pow = createProofOfWork("secreto", memoryOnce());
    const { header } = await solved(pow);
    expect(await pow.verify(header)).toEqual({ ok: true });
    expect(await pow.verify(header)).toEqual({ ok: false, reason: "usado" });
  });

  it("refuses a missing, garbled, forged, cheapened or foreign answer", async () => {
    const pow = createProofOfWork("secreto", memoryOnce());
    const { challenge, solution } = await solved(pow);
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");
    expect(await pow.verify(null)).toEqual({ ok: false, reason: "falta" });
    expect(await pow.verify("no es base64 ni json")).toEqual({ ok: false, reason: "invalido" });
    expect(await pow.verify(encode({ challenge }))).toEqual({ ok: false, reason: "invalido" });
    // The derived key is the proof (only the work finds it); a made-up one fails.
    const madeUp = { ...solution, derivedKey: "00".repeat(32) };
    expect(await pow.verify(encode({ challenge, solution: madeUp }))).toEqual({
      ok: false,
      reason: "invalido",
    });
    const cheaper = { ...challenge, parameters: { ...challenge.parameters, cost: 1 } };
    expect(await pow.verify(encode({ challenge: cheaper, solution }))).toEqual({
      ok: false,
      reason: "invalido",
    });
    const other = createProofOfWork("otro secreto", memoryOnce());
    expect(await other.verify(encode({ challenge, solution }))).toEqual({ ok: false, reason: "invalido" });
  });

  it("an answer past its 30 minutes is refused as expired", async () => {
    const pow = createProofOfWork("secreto", memoryOnce());
    const { header } = await solved(pow);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + (PROOF_OF_WORK.validMinutes + 1) * 60_000);
      expect(await pow.verify(header)).toEqual({ ok: false, reason: "vencido" });
    } finally {
      vi.useRealTimers();
    }
  });
});
