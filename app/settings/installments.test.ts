import { describe, expect, it } from "vitest";
import { installmentsFor, installmentsOffer } from "./installments";
import { applyOverrides, parseOverrides, settingsFromEnvironment, settingsSchema } from "./settings";

const SHOP = {
  name: "Oro de Luna",
  email: "hola@orodeluna.mx",
  whatsapp: "5215512345678",
  instagramUrl: "https://www.instagram.com/orodeluna",
  agencyName: "Agencia",
  agencyUrl: "https://agencia.mx",
  processVideoUrl: null,
};

describe("'meses sin intereses'", () => {
  const on = { enabled: true, months: 6, minCents: 300_000 } as const;

  it("are offered from the owner's minimum total, up to her months, and never while off", () => {
    expect(installmentsFor(on, 300_000)).toBe(6);
    expect(installmentsFor(on, 1_250_000)).toBe(6);
    expect(installmentsFor(on, 299_999)).toBeNull();
    expect(installmentsFor({ ...on, enabled: false }, 1_250_000)).toBeNull();
    expect(installmentsOffer({ ...on, enabled: false })).toBeNull();
    expect(installmentsOffer(on)).toEqual({ months: 6, minCents: 300_000 });
  });

  it("start off, at 6 months from $3,000; the form's values are read as the owner writes them", () => {
    expect(settingsFromEnvironment(SHOP).installments).toEqual({
      enabled: false,
      months: 6,
      minCents: 300_000,
    });
    const shape = settingsSchema.shape;
    expect(shape.installmentsEnabled.parse("on")).toBe(true);
    expect(shape.installmentsEnabled.parse(undefined)).toBe(false);
    expect(shape.installmentsMonths.parse("12")).toBe(12);
    expect(shape.installmentsMinimum.parse("$4,500")).toBe(4_500);
  });

  it("refuse months no card offers and totals out of range, in Spanish", () => {
    const shape = settingsSchema.shape;
    const message = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
      result.error?.issues[0]?.message;
    expect(message(shape.installmentsMonths.safeParse("5"))).toBe(
      "Meses sin intereses: elige 3, 6, 9, 12, 18 o 24.",
    );
    expect(message(shape.installmentsMinimum.safeParse("299"))).toMatch(
      /^Meses sin intereses desde: escribe un total en pesos, sin centavos, de 300 a 1,000,000\.$/,
    );
    expect(shape.installmentsMinimum.safeParse("4500.50").success).toBe(false);
  });

  it("are stored as the owner's overrides and read back after a restart", () => {
    const stored = parseOverrides(
      JSON.stringify({ installmentsEnabled: true, installmentsMonths: 12, installmentsMinimum: 5_000 }),
    );
    expect(applyOverrides(settingsFromEnvironment(SHOP), stored).installments).toEqual({
      enabled: true,
      months: 12,
      minCents: 500_000,
    });
    // A stored value no longer valid falls back to the default.
    const broken = parseOverrides(JSON.stringify({ installmentsMonths: 7 }));
    expect(applyOverrides(settingsFromEnvironment(SHOP), broken).installments.months).toBe(6);
  });
});
