import { describe, expect, it } from "vitest";
import { applyOverrides, parseOverrides, settingsFromEnvironment, settingsSchema } from "./settings";
import {
  parseDays,
  rateText,
  type ShippingRates,
  shippingLine,
  shippingOffer,
  shippingOptions,
} from "./shipping-rates";

const SHOP = {
  name: "Oro de Luna",
  email: "hola@orodeluna.mx",
  whatsapp: "5215512345678",
  instagramUrl: "https://www.instagram.com/orodeluna",
  agencyName: "Agencia",
  agencyUrl: "https://agencia.mx",
  processVideoUrl: null,
};

const RATES: ShippingRates = {
  standard: { label: "Envío estándar", cents: 15_000, minDays: 3, maxDays: 7 },
  express: { label: "Envío express", cents: 35_000, minDays: 1, maxDays: 2 },
  freeFromCents: 300_000,
};

const message = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe("shipping rates", () => {
  it("offer standard, then express; standard is free from the owner's total of pieces, express never", () => {
    expect(shippingOptions(RATES, 299_999).map((o) => [o.method, o.cents, o.text])).toEqual([
      ["estandar", 15_000, "Envío estándar (3 a 7 días hábiles)"],
      ["express", 35_000, "Envío express (1 a 2 días hábiles)"],
    ]);
    expect(shippingOptions(RATES, 300_000).map((o) => o.cents)).toEqual([0, 35_000]);
    // No threshold: never free.
    expect(shippingOptions({ ...RATES, freeFromCents: null }, 9_000_000).map((o) => o.cents)).toEqual([
      15_000, 35_000,
    ]);
  });

  it("the drawer's line: the standard rate and what is missing for free shipping, or free", () => {
    const offer = shippingOffer(RATES);
    expect(offer.text).toBe("Envío estándar (3 a 7 días hábiles)");
    expect(shippingLine(offer, 125_000)).toEqual({ cents: 15_000, missingCents: 175_000 });
    expect(shippingLine(offer, 300_000)).toEqual({ cents: 0, missingCents: null });
    expect(shippingLine({ ...offer, freeFromCents: null }, 900_000)).toEqual({
      cents: 15_000,
      missingCents: null,
    });
    // A standard rate of 0 is always free: nothing to reach.
    expect(shippingLine({ ...offer, cents: 0 }, 100)).toEqual({ cents: 0, missingCents: null });
  });

  it("days are read as owners write them and said in Spanish", () => {
    expect(parseDays("3 a 7")).toEqual({ minDays: 3, maxDays: 7 });
    expect(parseDays("3-7 días hábiles")).toEqual({ minDays: 3, maxDays: 7 });
    expect(parseDays("5")).toEqual({ minDays: 5, maxDays: 5 });
    expect(parseDays("7 a 3")).toBeNull();
    expect(parseDays("0")).toBeNull();
    expect(parseDays("pronto")).toBeNull();
    expect(parseDays("1 a 31")).toBeNull();
    expect(rateText({ label: "Mensajería", cents: 0, minDays: 1, maxDays: 1 })).toBe(
      "Mensajería (1 día hábil)",
    );
  });

  it("start at $150 standard, $350 express, free from $3,000; stored changes are read back", () => {
    const defaults = settingsFromEnvironment(SHOP);
    expect(defaults.shippingRates).toEqual(RATES);
    const stored = parseOverrides(
      JSON.stringify({
        shippingExpressCost: 420,
        shippingExpressDays: "1",
        shippingStandardLabel: "Estafeta",
        shippingFreeFrom: null,
      }),
    );
    expect(applyOverrides(defaults, stored).shippingRates).toEqual({
      standard: { ...RATES.standard, label: "Estafeta" },
      express: { ...RATES.express, cents: 42_000, minDays: 1, maxDays: 1 },
      freeFromCents: null,
    });
    // A stored value no longer valid falls back to the default.
    const broken = parseOverrides(JSON.stringify({ shippingStandardCost: -5 }));
    expect(applyOverrides(defaults, broken).shippingRates.standard.cents).toBe(15_000);
  });

  it("the form's values are read as the owner writes them; bad ones answer in Spanish", () => {
    const shape = settingsSchema.shape;
    expect(shape.shippingStandardCost.parse("$1,500")).toBe(1_500);
    expect(shape.shippingStandardCost.parse("0")).toBe(0);
    // Emptied: asked for, not quietly the first $150 again.
    expect(message(shape.shippingStandardCost.safeParse(undefined))).toMatch(
      /^Envío estándar: escribe el costo/,
    );
    expect(shape.shippingExpressDays.parse("1-2")).toBe("1 a 2");
    expect(shape.shippingFreeFrom.parse(undefined)).toBeNull();
    expect(shape.shippingFreeFrom.parse("0")).toBeNull();
    expect(shape.shippingFreeFrom.parse("$4,000")).toBe(4_000);
    expect(message(shape.shippingStandardCost.safeParse("150.50"))).toBe(
      "Envío estándar: escribe el costo en pesos, sin centavos, de 0 a 10,000 (0 es gratis).",
    );
    expect(message(shape.shippingExpressCost.safeParse("mucho"))).toMatch(/^Envío express: escribe el costo/);
    expect(message(shape.shippingExpressDays.safeParse("mañana"))).toBe(
      "Envío express: escribe los días hábiles de entrega, de 1 a 30, p. ej. «3 a 7» o «5».",
    );
    expect(message(shape.shippingFreeFrom.safeParse("-1"))).toMatch(/^Envío gratis desde: /);
    expect(message(shape.shippingStandardLabel.safeParse("x".repeat(41)))).toBe(
      "Envío estándar: máximo 40 caracteres.",
    );
  });
});
