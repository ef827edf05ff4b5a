import crypto from "node:crypto";
import { solveChallenge, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { describe, expect, it, vi } from "vitest";
import { createProofOfWork, PROOF_OF_WORK, type ProofOfWorkOptions } from "./proof-of-work.server";

vi.setConfig({ testTimeout: 60_000 });

const ANA = "navegadorDeAna00000001";
const LUZ = "navegadorDeLuz00000002";
/** Cheap challenges for the tests that are not about the cost. */
const CHEAP: ProofOfWorkOptions = { difficulty: { cost: 1, tries: 20 } };

/** A once() that remembers, as the request limits' store does across servers. */
function memoryOnce() {
  const seen = new Set<string>();
  return async (key: string) => {
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
}

async function solved(pow: ReturnType<typeof createProofOfWork>, browser = ANA) {
  const challenge = await pow.challenge(browser);
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error("not solved");
  return {
    challenge,
    solution,
    header: Buffer.from(JSON.stringify({ challenge, solution })).toString("base64"),
  };
}

describe("the checkout's proof of work", () => {
  it("costs real computing by default: the answer is a counter in the server's range, each try a PBKDF2 of 1000 rounds", async () => {
    const pow = createProofOfWork("secreto", memoryOnce());
    const { challenge, solution, header } = await solved(pow);
    expect(challenge.parameters.cost).toBe(1_000);
    expect(PROOF_OF_WORK.tries).toBe(5_000);
    expect(solution.counter).toBeGreaterThanOrEqual(1_000);
    expect(solution.counter).toBeLessThanOrEqual(5_000);
    expect(await pow.verify(header, ANA)).toEqual({ ok: true });
  });

  it("a lower difficulty (PROOF_OF_WORK_COST, PROOF_OF_WORK_TRIES) makes cheaper proofs, still checked", async () => {
    const pow = createProofOfWork("secreto", memoryOnce(), { difficulty: { cost: 3, tries: 50 } });
    const { challenge, solution, header } = await solved(pow);
    expect(challenge.parameters.cost).toBe(3);
    expect(solution.counter).toBeGreaterThanOrEqual(10);
    expect(solution.counter).toBeLessThanOrEqual(50);
    expect(await pow.verify(header, ANA)).toEqual({ ok: true });
  });

  it("a solution serves one checkout only", async () => {
    const pow = createProofOfWork("secreto", memoryOnce(), CHEAP);
    const { header } = await solved(pow);
    expect(await pow.verify(header, ANA)).toEqual({ ok: true });
    expect(await pow.verify(header, ANA)).toEqual({ ok: false, reason: "usado" });
  });

  it("check() makes the same checks without spending: it names the single-use key verify() spends", async () => {
    const spent: string[] = [];
    const once = memoryOnce();
    const pow = createProofOfWork(
      "secreto",
      async (key, seconds) => {
        spent.push(`${key} ${seconds}`);
        return once(key);
      },
      CHEAP,
    );
    const { challenge, header } = await solved(pow);
    const checked = pow.check(header, ANA);
    expect(checked).toEqual({
      ok: true,
      singleUse: { key: `altcha:${challenge.parameters.nonce}`, seconds: PROOF_OF_WORK.validSeconds },
    });
    expect(pow.check(header, ANA)).toEqual(checked);
    expect(pow.check(header, LUZ)).toEqual({ ok: false, reason: "ajeno" });
    expect(pow.check("basura", ANA)).toEqual({ ok: false, reason: "invalido" });
    expect(pow.check(undefined, ANA)).toEqual({ ok: false, reason: "falta" });
    expect(spent).toEqual([]);
    expect(await pow.verify(header, ANA)).toEqual({ ok: true });
    expect(spent).toEqual([`altcha:${challenge.parameters.nonce} ${PROOF_OF_WORK.validSeconds}`]);
  });

  it("a solution made for one browser is refused from another, or from none, and stays its own browser's", async () => {
    const pow = createProofOfWork("secreto", memoryOnce(), CHEAP);
    const { challenge, header } = await solved(pow, ANA);
    // The challenge names its browser by a digest: the page's scripts never see the id.
    expect(JSON.stringify(challenge)).not.toContain(ANA);
    expect(await pow.verify(header, LUZ)).toEqual({ ok: false, reason: "ajeno" });
    expect(await pow.verify(header, null)).toEqual({ ok: false, reason: "ajeno" });
    // Refused without being spent: Ana may still use it.
    expect(await pow.verify(header, ANA)).toEqual({ ok: true });
  });

  it("the browser it names cannot be changed: the challenge's signature covers it", async () => {
    const pow = createProofOfWork("secreto", memoryOnce(), CHEAP);
    const forAna = await solved(pow, ANA);
    const forLuz = await pow.challenge(LUZ);
    const relabelled = {
      challenge: {
        ...forAna.challenge,
        parameters: { ...forAna.challenge.parameters, data: forLuz.parameters.data },
      },
      solution: forAna.solution,
    };
    expect(await pow.verify(Buffer.from(JSON.stringify(relabelled)).toString("base64"), LUZ)).toEqual({
      ok: false,
      reason: "invalido",
    });
  });

  it("refuses a missing, garbled, forged, cheapened or foreign answer", async () => {
    const pow = createProofOfWork("secreto", memoryOnce());
    const { challenge, solution } = await solved(pow);
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");
    expect(await pow.verify(null, ANA)).toEqual({ ok: false, reason: "falta" });
    expect(await pow.verify("no es base64 ni json", ANA)).toEqual({ ok: false, reason: "invalido" });
    expect(await pow.verify(encode({ challenge }), ANA)).toEqual({ ok: false, reason: "invalido" });
    // The derived key is the proof (only the work finds it); a made-up one fails.
    const madeUp = { ...solution, derivedKey: "00".repeat(32) };
    expect(await pow.verify(encode({ challenge, solution: madeUp }), ANA)).toEqual({
      ok: false,
      reason: "invalido",
    });
    const cheaper = { ...challenge, parameters: { ...challenge.parameters, cost: 1 } };
    expect(await pow.verify(encode({ challenge: cheaper, solution }), ANA)).toEqual({
      ok: false,
      reason: "invalido",
    });
    const other = createProofOfWork("otro secreto", memoryOnce());
    expect(await other.verify(encode({ challenge, solution }), ANA)).toEqual({
      ok: false,
      reason: "invalido",
    });
  });

  it("an answer is good for five minutes: past them it is refused as expired", async () => {
    expect(PROOF_OF_WORK.validSeconds).toBe(300);
    const pow = createProofOfWork("secreto", memoryOnce(), CHEAP);
    const { header } = await solved(pow);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 4 * 60_000);
      const stillGood = await solved(pow);
      vi.setSystemTime(Date.now() + 2 * 60_000);
      expect(await pow.verify(header, ANA)).toEqual({ ok: false, reason: "vencido" });
      expect(await pow.verify(stillGood.header, ANA)).toEqual({ ok: true });
    } finally {
      vi.useRealTimers();
    }
  });

  it("proofs solved ahead cannot be saved up: one made six minutes before it is spent is expired", async () => {
    // The clock the challenge is made by, set back: as a script solving before an opening.
    const early = createProofOfWork("secreto", memoryOnce(), {
      ...CHEAP,
      now: () => Date.now() - 6 * 60_000,
    });
    const now = createProofOfWork("secreto", memoryOnce(), CHEAP);
    const { header } = await solved(early);
    expect(await now.verify(header, ANA)).toEqual({ ok: false, reason: "vencido" });
  });

  it("its check agrees with altcha-lib's own verifySolution, for good answers and bad", async () => {
    const secret = "secreto";
    const pow = createProofOfWork(secret, async () => true, CHEAP);
    const derive = (purpose: string) => crypto.createHmac("sha256", secret).update(purpose).digest("hex");
    const { challenge, solution } = await solved(pow);
    const cases = [
      { challenge, solution },
      { challenge, solution: { ...solution, derivedKey: "ab".repeat(32) } },
      { challenge, solution: { ...solution, derivedKey: solution.derivedKey.toUpperCase() } },
      { challenge: { ...challenge, parameters: { ...challenge.parameters, keyPrefix: "00" } }, solution },
      { challenge: { ...challenge, signature: "00".repeat(32) }, solution },
    ];
    for (const [i, payload] of cases.entries()) {
      const library = await verifySolution({
        ...payload,
        deriveKey,
        hmacSignatureSecret: derive("altcha-firma"),
        hmacKeySignatureSecret: derive("altcha-clave"),
      });
      const header = Buffer.from(JSON.stringify(payload)).toString("base64");
      expect((await pow.verify(header, ANA)).ok, String(i)).toBe(library.verified);
    }
  });
});
