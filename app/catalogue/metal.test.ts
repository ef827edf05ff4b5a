import { describe, expect, it } from "vitest";
import {
  fineness,
  gramsNumber,
  gramsText,
  isKarat,
  metalFactRows,
  metalFactsLine,
  metalName,
  metalStructuredData,
  metalText,
  NO_METAL_FACTS,
  toKarat,
} from "./metal";
import { parseGrams, stonesOrNull } from "./metal-input";

describe("karat and fineness", () => {
  it("gives the fineness stamped for each karat", () => {
    expect(fineness(10)).toBe(417);
    expect(fineness(14)).toBe(585);
    expect(fineness(18)).toBe(750);
  });

  it("knows only 10, 14 and 18", () => {
    expect([10, 14, 18].every(isKarat)).toBe(true);
    expect([0, 9, 12, 22, 24, 14.5, Number.NaN].some(isKarat)).toBe(false);
    expect(isKarat("14")).toBe(false);
    expect(toKarat(14)).toBe(14);
    expect(toKarat(22)).toBeNull();
    expect(toKarat(null)).toBeNull();
  });

  it("reads in Spanish", () => {
    expect(metalText(14)).toBe("Oro de 14 k (585)");
    expect(metalText(10)).toBe("Oro de 10 k (417)");
    expect(metalText(18)).toBe("Oro de 18 k (750)");
    expect(metalName(14)).toBe("Oro de 14 k");
    expect(metalName(18, "Oro blanco")).toBe("Oro blanco de 18 k");
  });
});

describe("weight", () => {
  it("reads grams with up to two decimals into whole milligrams, exactly", () => {
    expect(parseGrams("2.35")).toBe(2350);
    expect(parseGrams("2,35")).toBe(2350);
    expect(parseGrams(" 2.35 g ")).toBe(2350);
    expect(parseGrams("2.35 gramos")).toBe(2350);
    expect(parseGrams("0.8")).toBe(800);
    expect(parseGrams("12")).toBe(12_000);
    expect(parseGrams("1000")).toBe(1_000_000);
    expect(parseGrams("0.01")).toBe(10);
    expect(parseGrams("0")).toBe(0);
  });

  it("refuses what is not such a number", () => {
    for (const bad of ["", "abc", "2.355", "-2", "1,000", "2.3.5", ".5", "2.", "1e3", "2 35", "Infinity"]) {
      expect(parseGrams(bad), bad).toBeNull();
    }
  });

  it("writes milligrams back as grams: 2350 → 2.35 g, no float noise, trailing zeros dropped", () => {
    expect(gramsText(2350)).toBe("2.35 g");
    expect(gramsNumber(2350)).toBe("2.35");
    expect(gramsText(2300)).toBe("2.3 g");
    expect(gramsText(12_000)).toBe("12 g");
    expect(gramsText(10)).toBe("0.01 g");
    // Every weight the form can take goes there and back unchanged.
    for (let hundredths = 1; hundredths <= 100_000; hundredths += 7) {
      const typed = (hundredths / 100).toFixed(2);
      const mg = parseGrams(typed);
      expect(mg).toBe(hundredths * 10);
      expect(parseGrams(gramsNumber(mg ?? 0))).toBe(mg);
    }
  });
});

describe("stones", () => {
  it("takes none for empty or 'Sin piedras'", () => {
    expect(stonesOrNull("")).toBeNull();
    expect(stonesOrNull("   ")).toBeNull();
    expect(stonesOrNull(undefined)).toBeNull();
    expect(stonesOrNull("Sin piedras")).toBeNull();
    expect(stonesOrNull("sin piedra")).toBeNull();
    expect(stonesOrNull("Ninguna")).toBeNull();
    expect(stonesOrNull(" Zirconia blanca ")).toBe("Zirconia blanca");
  });
});

describe("how the facts are shown", () => {
  const full = { karat: 14 as const, weightMg: 2350, stones: "Zirconia blanca" };

  it("as a definition list with only the facts the piece has", () => {
    expect(metalFactRows(full)).toEqual([
      { term: "Metal", detail: "Oro de 14 k (585)" },
      { term: "Peso", detail: "2.35 g" },
      { term: "Piedras", detail: "Zirconia blanca" },
    ]);
    expect(metalFactRows({ ...full, stones: null })).toEqual([
      { term: "Metal", detail: "Oro de 14 k (585)" },
      { term: "Peso", detail: "2.35 g" },
    ]);
    expect(metalFactRows({ karat: null, weightMg: 800, stones: null })).toEqual([
      { term: "Peso", detail: "0.8 g" },
    ]);
    expect(metalFactRows(NO_METAL_FACTS)).toEqual([]);
  });

  it("as one line for the packing slip", () => {
    expect(metalFactsLine(full)).toBe("Oro de 14 k (585) · 2.35 g · Zirconia blanca");
    expect(metalFactsLine(NO_METAL_FACTS)).toBe("");
  });

  it("as schema.org Product fields: material and weight in grams (GRM)", () => {
    expect(metalStructuredData(full, "Oro amarillo")).toEqual({
      material: "Oro amarillo de 14 k",
      weight: { "@type": "QuantitativeValue", value: 2.35, unitCode: "GRM" },
    });
    expect(metalStructuredData({ ...full, weightMg: null })).toEqual({ material: "Oro de 14 k" });
    expect(metalStructuredData(NO_METAL_FACTS, "Oro rosa")).toEqual({});
  });
});
