import { z } from "zod";
import { normalizeDropStatus } from "~/catalogue/drop-status";
import type { Karat } from "~/catalogue/metal";
import { MAX_STONES_LENGTH, MAX_WEIGHT_MG, parseGrams, stonesOrNull } from "~/catalogue/metal-input";
import { HOLD_MINUTES, MAX_ORDER_PIECES, MIN_HOLD_MINUTES } from "~/config/ceilings";
import { OPENING_BOUNDS, OPENING_DEFAULTS } from "~/config/opening";
import {
  CATEGORIAS,
  MATERIALES,
  MAX_EDITION,
  MAX_EXTRA_IMAGES,
  MAX_PRICE_CENTS,
  MAX_STOCK,
} from "~/db/taxonomy";
import { outsideShopYears, SHOP_YEARS, shopTimeToInstant } from "~/lib/dates";
import { isId } from "~/lib/ids";
import { formatMXN } from "~/lib/money";
import { safeText } from "~/lib/text";
import { checkOption, optionFields, optionOfInput, withOptionFields } from "./option-input";

/*
 * The drop form (create and edit), one schema for the page and the server. Dates and times are
 * typed in Mexico City time; money as pesos with centavos ("12,500.00"); every message is the one
 * the owner reads next to the field.
 */

/** At most this many pieces in one drop (a limited collection). */
export const MAX_PRODUCTS = 60;

/** One-line text, or `multiline` (the descriptions' textareas keep tabs and line breaks). */
const text = (max: number, label: string, options: { missing?: string; multiline?: boolean } = {}) =>
  safeText({
    label,
    multiline: options.multiline,
    error: options.missing ?? `${label}: falta este campo.`,
  }).max(max, `${label}: máximo ${max} caracteres.`);
const mediaId = z
  .string()
  .trim()
  .refine((v) => v === "" || isId(v), "Esa imagen no es válida; súbela de nuevo.");

/** A drop's version as the edit form carries it: the instant of its last save, in ISO-8601 UTC. */
function isVersion(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value) && !Number.isNaN(Date.parse(value));
}

/** What the owner reads next to a date that is no date; a year out of range is named (a typo: "0226"). */
function dateMessage(which: "inicio" | "fin", date: string): string {
  return outsideShopYears(date)
    ? `La fecha de ${which} no es válida: escribe un año de ${SHOP_YEARS.first} a ${SHOP_YEARS.last}.`
    : `La fecha de ${which} no es válida.`;
}

/** Said of a product without its main image; `fieldErrors` names the product ('Producto 2 …'). */
export const NO_MAIN_IMAGE = "no tiene imagen principal";

/** One of the opening's rules: a whole number within its bounds; empty is the default. */
function openingRule(rule: keyof typeof OPENING_BOUNDS, label: string, unit: string) {
  const { min, max } = OPENING_BOUNDS[rule];
  return z
    .string()
    .trim()
    .optional()
    .default("")
    .refine(
      (v) => v === "" || (/^\d{1,4}$/.test(v) && Number(v) >= min && Number(v) <= max),
      `${label}: escribe de ${min} a ${max} ${unit}.`,
    )
    .transform((v) => (v === "" ? OPENING_DEFAULTS[rule] : Number(v)));
}

/** "12,500.00", "12500", "12500.5" or "$12,500" -> 1250000 centavos; null when it is not money. */
export function parsePesos(input: string): number | null {
  const cleaned = input.trim().replace(/^\$/, "").replace(/,/g, "");
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(cleaned)) return null;
  const [whole, cents = ""] = cleaned.split(".");
  return Number(whole) * 100 + Number(cents.padEnd(2, "0"));
}

/** 1250000 -> "12500.00", what the price field shows when a drop is edited. */
export function pesosText(cents: number): string {
  return (cents / 100).toFixed(2);
}

/**
 * A field the form may leave empty (null); otherwise read by `read`, which gives its value or the
 * Spanish reason it is refused.
 */
function optionalField<T>(read: (value: string) => { value: T } | { error: string }) {
  return z
    .string()
    .trim()
    .optional()
    .default("")
    .transform((value, ctx): T | null => {
      if (value === "") return null;
      const outcome = read(value);
      if ("error" in outcome) {
        ctx.addIssue({ code: "custom", message: outcome.error });
        return z.NEVER;
      }
      return outcome.value;
    });
}

/** 'Quilates': empty for not said, else 10, 14 or 18. */
const karatField = optionalField<Karat>((value) =>
  value === "10" || value === "14" || value === "18"
    ? { value: Number(value) as Karat }
    : { error: "Quilates: elige 10 k, 14 k o 18 k, o déjalo sin marcar." },
);

/** 'Peso (g)': empty for not said, else grams with up to two decimals → whole milligrams. */
const weightField = optionalField<number>((value) => {
  const mg = parseGrams(value);
  if (mg === null) return { error: "Escribe el peso en gramos, por ejemplo 2.35." };
  if (mg <= 0 || mg > MAX_WEIGHT_MG) return { error: "El peso debe ser mayor a 0 g y de hasta 1000 g." };
  return { value: mg };
});

/** 'Edición limitada (piezas)': empty for a piece that is not numbered, else how many are numbered. */
const editionField = optionalField<number>((value) => {
  const n = /^\d{1,6}$/.test(value) ? Number(value) : Number.NaN;
  return n >= 1 && n <= MAX_EDITION
    ? { value: n }
    : {
        error: `Edición limitada: escribe cuántas piezas numeradas son (de 1 a ${MAX_EDITION}), o déjalo vacío.`,
      };
});

/** A product's own fields, as posted (its option's values still as typed). */
const productFields = z.object({
  /** An existing product (edit); absent for a new one. */
  id: z
    .string()
    .trim()
    .refine((v) => v === "" || isId(v), "Producto desconocido.")
    .optional()
    .default(""),
  name: text(120, "Nombre", { missing: "Escribe el nombre del producto." }).min(
    1,
    "Escribe el nombre del producto.",
  ),
  price: z
    .string({ error: "Escribe el precio." })
    .trim()
    .min(1, "Escribe el precio.")
    .transform((value, ctx) => {
      const cents = parsePesos(value);
      if (cents === null) {
        ctx.addIssue({ code: "custom", message: "Escribe el precio en pesos, p. ej. 12500.00." });
        return z.NEVER;
      }
      if (cents <= 0 || cents > MAX_PRICE_CENTS) {
        ctx.addIssue({
          code: "custom",
          message: `El precio debe ser mayor a $0 y de hasta ${formatMXN(MAX_PRICE_CENTS)}.`,
        });
        return z.NEVER;
      }
      return cents;
    }),
  stock: z
    .string({ error: "Escribe cuántas piezas hay." })
    .trim()
    .min(1, "Escribe cuántas piezas hay.")
    .regex(/^\d+$/, "El stock es un número entero de piezas.")
    .transform(Number)
    .refine((n) => n <= MAX_STOCK, `El stock puede ser de hasta ${MAX_STOCK} piezas.`),
  /** Edit: the stock the form showed when it was loaded; the change is applied as a difference. */
  stockLoaded: z
    .string()
    .trim()
    // Up to 9 digits: the difference it makes stays a 32-bit integer on PostgreSQL.
    .regex(/^\d{0,9}$/, "Formulario inválido: recarga la página.")
    .optional()
    .transform((v) => (v ? Number(v) : null)),
  categoria: z.enum(CATEGORIAS, { error: "Elige la categoría." }),
  material: z.enum(MATERIALES, { error: "Elige el material." }),
  description: text(2000, "Descripción", { multiline: true }).optional().default(""),
  /** The metal's facts (catalogue/metal.ts): each optional. */
  karat: karatField,
  weight: weightField,
  stones: text(MAX_STONES_LENGTH, "Piedras").optional().default("").transform(stonesOrNull),
  /** A limited edition of this many numbered pieces (editions.server.ts); null: not numbered. */
  edition: editionField,
  imageId: mediaId
    .optional()
    .default("")
    .refine((v) => v !== "", NO_MAIN_IMAGE),
  /** What the main photo shows (prefilled with the product's name). */
  imageAlt: text(200, "Descripción de la imagen").optional().default(""),
  extraImageIds: z
    .array(z.string().trim().refine(isId, "Esa imagen no es válida; súbela de nuevo."))
    .max(MAX_EXTRA_IMAGES, `Hasta ${MAX_EXTRA_IMAGES} imágenes extra por producto.`)
    .optional()
    .default([]),
  /** What each extra photo shows, in the same order as their ids. */
  extraImageAlts: z.array(text(200, "Descripción de la imagen")).max(MAX_EXTRA_IMAGES).optional().default([]),
  /** 'Talla' or 'Largo' and its values, each with its own stock (option-input.ts). */
  ...optionFields,
});

/**
 * One product of the form. With an option, its stock is the sum of its values' (`option`); without
 * one, the stock typed.
 */
export const productInput = z.preprocess(
  withOptionFields,
  productFields
    .superRefine(checkOption)
    .transform(({ optionName, options, ...product }) => {
      const option = optionOfInput({ optionName, options });
      const stock = option ? option.values.reduce((sum, v) => sum + v.stock, 0) : product.stock;
      return { ...product, stock, option };
    })
    // More pieces on sale than numbers: the ones past the edition would go unnumbered while the
    // page says 'Limitada, N piezas numeradas' (the save checks those already sold too).
    .superRefine((product, ctx) => {
      if (product.edition !== null && product.stock > product.edition) {
        ctx.addIssue({
          code: "custom",
          path: ["edition"],
          message: `La edición es de ${product.edition === 1 ? "1 pieza numerada" : `${product.edition} piezas numeradas`}: el stock (${product.stock}) no puede ser mayor.`,
        });
      }
    }),
);

export const dropInput = z
  .object({
    /** Chosen when the form opens, so photos can be stored under the drop's folder before it exists. */
    id: z
      .string({ error: "Formulario inválido: recarga la página." })
      .trim()
      .refine(isId, "Formulario inválido: recarga la página."),
    /** Edit: the version of the drop the form opened (a save from an older one is refused). */
    version: z
      .string()
      .trim()
      .refine((v) => v === "" || isVersion(v), "Formulario inválido: recarga la página.")
      .optional()
      .default(""),
    name: text(120, "Nombre", { missing: "Escribe el nombre de la colección." }).min(
      1,
      "Escribe el nombre de la colección.",
    ),
    startDate: z
      .string({ error: "Escribe la fecha de inicio." })
      .trim()
      .min(1, "Escribe la fecha de inicio."),
    startTime: z.string().trim().optional().default("00:00"),
    endDate: z.string({ error: "Escribe la fecha de fin." }).trim().min(1, "Escribe la fecha de fin."),
    // An end without its time: the whole last day, to its last second (the end is inclusive).
    endTime: z.string().trim().optional().default("23:59:59"),
    /** 'Máximo N por persona': pieces of this drop in one order; empty for the shop's ceilings only. */
    maxPerOrder: z
      .string()
      .trim()
      .optional()
      .default("")
      .refine(
        (v) => v === "" || (/^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_ORDER_PIECES),
        `Máximo por persona: escribe un número de 1 a ${MAX_ORDER_PIECES}, o déjalo vacío para no limitar.`,
      )
      .transform((v) => (v === "" ? null : Number(v))),
    /** How long a checkout holds this drop's pieces. */
    holdMinutes: z
      .string()
      .trim()
      .optional()
      .default("")
      .refine(
        (v) =>
          v === "" || (/^\d{1,2}$/.test(v) && Number(v) >= MIN_HOLD_MINUTES && Number(v) <= HOLD_MINUTES),
        `Apartado: escribe de ${MIN_HOLD_MINUTES} a ${HOLD_MINUTES} minutos.`,
      )
      .transform((v) => (v === "" ? HOLD_MINUTES : Number(v))),
    // The opening's rules (decision 27): empty means the default.
    lotterySeconds: openingRule("lotterySeconds", "Sorteo al abrir", "segundos"),
    openingMinutes: openingRule("openingMinutes", "Duración de la apertura", "minutos"),
    openingHoldMinutes: openingRule("openingHoldMinutes", "Apartado en la apertura", "minutos"),
    openingHoldsPerAddress: openingRule(
      "openingHoldsPerAddress",
      "Piezas por conexión en la apertura",
      "piezas",
    ),
    cardOnlyHours: openingRule("cardOnlyHours", "Solo tarjeta", "horas"),
    smallDescription: text(300, "Descripción corta", { multiline: true }).optional().default(""),
    fullDescription: text(5000, "Descripción completa", { multiline: true }).optional().default(""),
    /** Edit only; new drops start as proximamente. `archivado` is read as `archivada`. */
    status: z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined || v === "") return null;
        const status = normalizeDropStatus(v);
        if (!status) ctx.addIssue({ code: "custom", message: "Elige un estado de la lista." });
        return status;
      }),
    imageId: mediaId.optional().default(""),
    imageAlt: text(200, "Descripción de la imagen").optional().default(""),
    videoId: mediaId.optional().default(""),
    products: z.array(productInput).max(MAX_PRODUCTS, `Hasta ${MAX_PRODUCTS} productos por colección.`),
  })
  .transform((value, ctx) => {
    const startAt = shopTimeToInstant(value.startDate, value.startTime || "00:00");
    const endAt = shopTimeToInstant(value.endDate, value.endTime || "23:59:59");
    if (!startAt)
      ctx.addIssue({ code: "custom", path: ["startDate"], message: dateMessage("inicio", value.startDate) });
    if (!endAt)
      ctx.addIssue({ code: "custom", path: ["endDate"], message: dateMessage("fin", value.endDate) });
    if (startAt && endAt && endAt.getTime() <= startAt.getTime()) {
      ctx.addIssue({
        code: "custom",
        path: ["endDate"],
        message: "La fecha de fin debe ser posterior a la de inicio.",
      });
    }
    // One product twice would apply its stock change twice.
    const ids = value.products.map((p) => p.id).filter((id) => id !== "");
    if (new Set(ids).size !== ids.length) {
      ctx.addIssue({
        code: "custom",
        path: ["products"],
        message: "Un producto aparece dos veces: recarga la página.",
      });
    }
    if (!startAt || !endAt) return z.NEVER;
    return { ...value, startAt, endAt };
  });

export type DropInput = z.output<typeof dropInput>;
export type ProductInput = DropInput["products"][number];
