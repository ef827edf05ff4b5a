/*
 * The metal's facts of a piece, as fields: the gold's karat (and the fineness it stands for), the
 * weight, and the stones if any. Pure: the product page, the packing slip and the product's
 * structured data read them through here; the drop form reads what the owner types with
 * ./metal-input (kept apart, so the shop's pages do not load the form's parsing).
 */

/** The karats the shop works in. */
export const KARATS = [10, 14, 18] as const;
export type Karat = (typeof KARATS)[number];

/** Thousandths of gold in the alloy, as stamped on the piece (10 k → 417, 14 k → 585, 18 k → 750). */
const FINENESS: Record<Karat, number> = { 10: 417, 14: 585, 18: 750 };

/** What a product says of its metal; every field null when the owner has not said it. */
export interface MetalFacts {
  karat: Karat | null;
  /** Whole milligrams (2.35 g is 2350): exact, unlike a float of grams. */
  weightMg: number | null;
  /** 'Zirconia blanca', 'Diamante de 0.10 ct'; null for none. */
  stones: string | null;
}

export const NO_METAL_FACTS: MetalFacts = { karat: null, weightMg: null, stones: null };

export function isKarat(value: unknown): value is Karat {
  return typeof value === "number" && (KARATS as readonly number[]).includes(value);
}

/** A stored karat, or null for anything else (a column the CHECK keeps to 10, 14, 18 or null). */
export function toKarat(value: number | null | undefined): Karat | null {
  return isKarat(value) ? value : null;
}

/** A product row's facts (a row of a product since removed reads as none). */
export function metalFactsOf(row: {
  karat: number | null;
  weight_mg: number | null;
  stones: string | null;
}): MetalFacts {
  return { karat: toKarat(row.karat), weightMg: row.weight_mg, stones: row.stones };
}

export function fineness(karat: Karat): number {
  return FINENESS[karat];
}

/** "Oro de 14 k"; with a colour, "Oro amarillo de 14 k". */
export function metalName(karat: Karat, material?: string): string {
  return `${material ?? "Oro"} de ${karat} k`;
}

/** "Oro de 14 k (585)": the karat and its fineness, as the product page and the slip show them. */
export function metalText(karat: Karat): string {
  return `${metalName(karat)} (${fineness(karat)})`;
}

/** 2350 → "2.35" (what the weight field shows); trailing zeros go: 2300 → "2.3", 2000 → "2". */
export function gramsNumber(weightMg: number): string {
  // Two decimals are what the form takes; the stored milligrams are whole, so this is exact.
  return (Math.round(weightMg / 10) / 100).toString();
}

/** 2350 → "2.35 g". */
export function gramsText(weightMg: number): string {
  return `${gramsNumber(weightMg)} g`;
}

/** The weight in grams as a number for structured data (2350 → 2.35). */
export function grams(weightMg: number): number {
  return Math.round(weightMg / 10) / 100;
}

/** The facts as a definition list's rows ('Metal', 'Peso', 'Piedras'), only those the piece has. */
export function metalFactRows(facts: MetalFacts): { term: string; detail: string }[] {
  const rows: { term: string; detail: string }[] = [];
  if (facts.karat !== null) rows.push({ term: "Metal", detail: metalText(facts.karat) });
  if (facts.weightMg !== null) rows.push({ term: "Peso", detail: gramsText(facts.weightMg) });
  if (facts.stones !== null) rows.push({ term: "Piedras", detail: facts.stones });
  return rows;
}

/** One line for a packing slip or a list: "Oro de 14 k (585) · 2.35 g · Zirconia blanca"; "" for none. */
export function metalFactsLine(facts: MetalFacts): string {
  return metalFactRows(facts)
    .map((r) => r.detail)
    .join(" · ");
}

/**
 * What schema.org's Product says of the metal: `material` ("Oro amarillo de 14 k", with the
 * shop's colour when given) and `weight` in grams (UN/CEFACT code GRM). Empty when unknown.
 */
export function metalStructuredData(
  facts: MetalFacts,
  material?: string,
): { material?: string; weight?: { "@type": "QuantitativeValue"; value: number; unitCode: "GRM" } } {
  return {
    ...(facts.karat !== null ? { material: metalName(facts.karat, material) } : {}),
    ...(facts.weightMg !== null
      ? { weight: { "@type": "QuantitativeValue", value: grams(facts.weightMg), unitCode: "GRM" } }
      : {}),
  };
}
