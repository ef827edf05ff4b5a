import { describe, expect, it } from "vitest";
import { checkRfc, normalizeRfc, rfcCheckDigit } from "./rfc";

describe("RFC", () => {
  it("accepts real-shaped RFCs of personas físicas (13) and morales (12) with their check digit", () => {
    // The SAT's own test RFCs for CFDI 4.0 and well-known published ones.
    for (const [rfc, kind] of [
      ["EKU9003173C9", "moral"],
      ["XIA190128J61", "moral"],
      ["WAL9709244W4", "moral"],
      ["IIA040805DZ4", "moral"],
      ["CACX7605101P8", "fisica"],
      ["GODE561231GR8", "fisica"],
      ["FUNK671228PH6", "fisica"],
    ] as const) {
      expect(checkRfc(rfc), rfc).toEqual({ ok: true, rfc, kind });
    }
  });

  it("reads it as people copy it: lower case, spaces, dashes", () => {
    expect(normalizeRfc(" gode-561231-gr8 ")).toBe("GODE561231GR8");
    expect(checkRfc("eku 900317 3c9")).toEqual({ ok: true, rfc: "EKU9003173C9", kind: "moral" });
  });

  it("computes the SAT's check digit (mod 11; 10 is A, 11 is 0), a moral's counted from a space", () => {
    expect(rfcCheckDigit("GODE561231GR")).toBe("8");
    expect(rfcCheckDigit("EKU9003173C")).toBe("9");
    // Ñ and & have their own values in the table.
    const withEnye = "MUÑO800101AB";
    const digit = rfcCheckDigit(withEnye);
    expect(checkRfc(`${withEnye}${digit}`)).toEqual({ ok: true, rfc: `${withEnye}${digit}`, kind: "fisica" });
    const withAmp = "A&B010101AB";
    expect(checkRfc(`${withAmp}${rfcCheckDigit(withAmp)}`).ok).toBe(true);
    // Somewhere a body gives 10: its digit is "A".
    const bodies = Array.from(
      { length: 400 },
      (_, i) => `ABC0101${String((i % 28) + 1).padStart(2, "0")}${"ABCDEFGHIJKLMNOPQRST"[i % 20]}${i % 10}`,
    );
    expect(bodies.map(rfcCheckDigit)).toContain("A");
    expect(bodies.map(rfcCheckDigit)).toContain("0");
  });

  it("refuses a wrong check digit, a wrong length or shape, and a date that does not exist", () => {
    const refused = (rfc: string) => {
      const checked = checkRfc(rfc);
      return checked.ok ? "" : checked.message;
    };
    expect(refused("GODE561231GR9")).toContain("dígito verificador");
    expect(refused("EKU9003173C8")).toContain("dígito verificador");
    // A física's RFC missing a character reads as a moral's of the wrong shape.
    expect(refused("GODE561231GR")).toContain("3 letras");
    expect(refused("GOD561231GR8X1")).toContain("13 caracteres");
    expect(refused("G0DE561231GR8")).toContain("4 letras");
    expect(refused("EK19003173C9")).toContain("3 letras");
    expect(refused("GODE561331GR8")).toContain("fecha");
    expect(refused("GODE560230GR8")).toContain("fecha");
    expect(refused("")).toBe("Escribe tu RFC.");
  });

  it("takes 29 February only in leap years (00 is 2000)", () => {
    const withDigit = (body: string) => `${body}${rfcCheckDigit(body)}`;
    expect(checkRfc(withDigit("GOPE000229AB")).ok).toBe(true);
    expect(checkRfc(withDigit("GOPE960229AB")).ok).toBe(true);
    expect(checkRfc(withDigit("GOPE970229AB")).ok).toBe(false);
  });

  it("refuses the generic RFCs: they are for the global invoice, not the buyer's own", () => {
    for (const rfc of ["XAXX010101000", "xexx010101000"]) {
      const checked = checkRfc(rfc);
      expect(checked.ok).toBe(false);
      if (!checked.ok) expect(checked.message).toContain("RFC genérico");
    }
  });
});
