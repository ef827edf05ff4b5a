/*
 * 'Guía de tallas': ring sizes as Mexico sells them (the US scale), with each size's inside
 * diameter and circumference in millimetres, and how to measure at home. A size's inside diameter
 * grows by 0.8128 mm (1/32 in) a size from 11.63 mm at size 0, the scale's own definition; the
 * circumference is π times it. Pure: the product page's dialog and its tests read it.
 */

export interface RingSizeRow {
  /** '6.5' */
  size: string;
  /** Inside diameter, mm, one decimal: '16.9'. */
  diameterMm: string;
  /** Inside circumference, mm, one decimal: '53.1'. */
  circumferenceMm: string;
}

const DIAMETER_AT_ZERO_MM = 11.63;
const DIAMETER_STEP_MM = 0.8128;

/** The guide's rows: sizes 3 to 12, halves included. */
export const RING_SIZES: readonly RingSizeRow[] = Array.from({ length: 19 }, (_, i) =>
  ringSizeRow(3 + i / 2),
);

export function ringSizeRow(size: number): RingSizeRow {
  const diameter = DIAMETER_AT_ZERO_MM + DIAMETER_STEP_MM * size;
  return {
    size: String(size),
    diameterMm: diameter.toFixed(1),
    circumferenceMm: (Math.PI * diameter).toFixed(1),
  };
}

/** How to find one's size at home, step by step. */
export const MEASURE_RING_STEPS: readonly string[] = [
  "Toma un anillo que te quede bien en el dedo donde usarás el nuevo.",
  "Mide con una regla el diámetro interior, de borde a borde por dentro, en milímetros.",
  "Busca en la tabla el diámetro más cercano; si quedas entre dos tallas, elige la mayor.",
  "Sin anillo: rodea la base del dedo con una tira de papel, marca donde se junta y mide su largo: es la circunferencia.",
  "Mide al final del día y con las manos tibias: los dedos cambian con el frío y el calor.",
];

/** Necklace and bracelet lengths, where each one sits. */
export const LENGTHS: readonly { length: string; where: string }[] = [
  { length: "16–18 cm", where: "Pulsera o esclava, en la muñeca" },
  { length: "40 cm", where: "Al cuello, en la base" },
  { length: "45 cm", where: "Sobre la clavícula" },
  { length: "50 cm", where: "Debajo de la clavícula" },
  { length: "60 cm", where: "A la altura del pecho" },
];

/** How to choose a length at home. */
export const MEASURE_LENGTH_STEPS: readonly string[] = [
  "Rodea el cuello (o la muñeca) con un cordón o una cinta, a la altura donde quieres la pieza.",
  "Marca donde se junta y mide el largo con una regla o una cinta métrica, en centímetros.",
  "Compara con un collar o una pulsera que ya uses y te guste cómo cae.",
];
