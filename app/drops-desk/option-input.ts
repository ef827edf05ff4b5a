import { z } from "zod";
import { MAX_STOCK, OPTION_NAMES, type OptionName } from "~/db/taxonomy";
import { isId } from "~/lib/ids";
import { hasControlChars } from "~/lib/text";

/*
 * A product's sizes on the drop form (decision 34): one option, 'Talla' (rings) or 'Largo'
 * (necklaces, bracelets), and its values, each with its own stock. The product's stock is then
 * their sum, never typed. Posted as `products[i].optionName` and `products[i].options[j].value`,
 * `.stock`, and (edit) `.id` and `.stockLoaded`.
 */

export { OPTION_NAMES, type OptionName };

/** At most this many values per product (ring sizes 3 to 12 with halves are 19). */
export const MAX_OPTION_VALUES = 30;
/** A value's text: '7', '6.5', '45 cm' (the table's CHECK says 1 to 20 characters). */
export const MAX_OPTION_VALUE_LENGTH = 20;

const RELOAD = "Formulario inválido: recarga la página.";

/** What the owner reads about an option's values: 'la talla 7', 'el largo 45 cm'. */
export function optionWords(name: OptionName) {
  const talla = name === "Talla";
  return {
    /** 'talla' / 'largo' */
    noun: talla ? "talla" : "largo",
    /** 'tallas' / 'largos' */
    plural: talla ? "tallas" : "largos",
    /** 'la talla' / 'el largo' */
    the: talla ? "la talla" : "el largo",
    /** 'una talla' / 'un largo' */
    one: talla ? "una talla" : "un largo",
    /** 'esta talla' / 'este largo' */
    this: talla ? "esta talla" : "este largo",
    /** 'cada una' / 'cada uno' */
    each: talla ? "cada una" : "cada uno",
  };
}

/** One value as posted; read as text here, judged by `checkOption`, which knows the option's name. */
export const optionValueInput = z.object({
  /** A stored value (edit); empty for one added on the form. */
  id: z
    .string()
    .trim()
    .refine((v) => v === "" || isId(v), RELOAD)
    .optional()
    .default(""),
  value: z.string().trim().optional().default(""),
  stock: z.string().trim().optional().default(""),
  /** Edit: the value's stock the form showed when it was loaded; the change is applied as a difference. */
  stockLoaded: z
    .string()
    .trim()
    .regex(/^\d{0,9}$/, RELOAD)
    .optional()
    .transform((v) => (v ? Number(v) : null)),
});

type RawValue = z.output<typeof optionValueInput>;

/** The option as the product's fields give it: a name ('' for none) and its values as typed. */
export const optionFields = {
  optionName: z
    .string()
    .trim()
    .optional()
    .default("")
    .refine(
      (v) => v === "" || (OPTION_NAMES as readonly string[]).includes(v),
      "Elige Sin tallas, Talla o Largo.",
    )
    .transform((v) => (v === "" ? null : (v as OptionName))),
  options: z.array(optionValueInput).optional().default([]),
};

/**
 * Before the product's fields are read: a product with an option has no stock of its own to
 * type (it is the sum of its values', so any `stock` sent is set aside), and one without an option
 * has no values (a form that hid them may still have sent some).
 */
export function withOptionFields(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null) return raw;
  const product = raw as Record<string, unknown>;
  const name = typeof product.optionName === "string" ? product.optionName.trim() : "";
  return name === "" ? { ...product, options: [] } : { ...product, stock: "0" };
}

/** A value's stock as typed: a whole number of pieces from 0 to MAX_STOCK, or why it is not. */
function stockError(stock: string, of: string): string | null {
  if (stock === "") return `Escribe cuántas piezas hay de ${of}.`;
  if (!/^\d+$/.test(stock)) return `El stock de ${of} es un número entero de piezas.`;
  if (Number(stock) > MAX_STOCK) return `El stock de ${of} puede ser de hasta ${MAX_STOCK} piezas.`;
  return null;
}

/**
 * The option's rules, each said beside its field: every value written (1 to 20 characters, no
 * control characters), each once (whatever its capitals), each stock a whole number; at least one
 * value and at most MAX_OPTION_VALUES; their sum within MAX_STOCK.
 */
export function checkOption(
  product: { optionName: OptionName | null; options: RawValue[] },
  ctx: z.RefinementCtx,
): void {
  const name = product.optionName;
  const values = product.options ?? [];
  // No option, or one the form does not offer (already said beside the choice).
  if (!name || !(OPTION_NAMES as readonly string[]).includes(name)) return;
  const words = optionWords(name);
  const issue = (path: (string | number)[], message: string) =>
    ctx.addIssue({ code: "custom", path, message });
  if (values.length === 0) issue(["options"], `Agrega al menos ${words.one}.`);
  if (values.length > MAX_OPTION_VALUES) {
    issue(["options"], `Hasta ${MAX_OPTION_VALUES} ${words.plural} por producto.`);
    return;
  }
  const seen = new Set<string>();
  let sum = 0;
  for (const [j, v] of values.entries()) {
    const text = v?.value ?? "";
    const of = text ? `${words.the} ${text}` : words.this;
    if (text === "") issue(["options", j, "value"], `Escribe ${words.the}.`);
    else if (text.length > MAX_OPTION_VALUE_LENGTH)
      issue(["options", j, "value"], `${name}: máximo ${MAX_OPTION_VALUE_LENGTH} caracteres.`);
    else if (hasControlChars(text))
      issue(["options", j, "value"], `${name}: contiene caracteres no permitidos.`);
    else if (seen.has(text.toLowerCase()))
      issue(
        ["options", j, "value"],
        `${capitalized(words.the)} ${text} está dos veces: escribe ${words.each} una vez.`,
      );
    seen.add(text.toLowerCase());
    const bad = stockError(v?.stock ?? "", of);
    if (bad) issue(["options", j, "stock"], bad);
    else sum += Number(v?.stock);
  }
  if (sum > MAX_STOCK)
    issue(["options"], `La suma de las ${words.plural} puede ser de hasta ${MAX_STOCK} piezas.`);
}

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** One value as the desk stores it. */
export interface OptionValueInput {
  /** The stored value's id (edit); "" for a new one. */
  id: string;
  value: string;
  stock: number;
  /** Edit: the stock the form showed when it opened; null for a new value. */
  stockLoaded: number | null;
}

/** The product's option, read: null for none. Only called once `checkOption` found nothing wrong. */
export function optionOfInput(product: {
  optionName: OptionName | null;
  options: RawValue[];
}): { name: OptionName; values: OptionValueInput[] } | null {
  if (!product.optionName) return null;
  return {
    name: product.optionName,
    values: product.options.map((v) => ({
      id: v.id,
      value: v.value,
      stock: Number(v.stock),
      stockLoaded: v.stockLoaded,
    })),
  };
}

/** One value on the form, as typed, with what the page shows beside it. */
export interface OptionValueFormValues {
  /** The page's own key for a value added on it (React needs one before it has an id). */
  key?: string;
  id: string;
  value: string;
  stock: string;
  /** The stock the form showed when it opened (edit): the save applies the difference. */
  stockLoaded: string;
  /** Pieces of it held by checkouts waiting for payment when the form opened. */
  held: number;
  /** Confirmed 'Avísame si vuelve' requests waiting for this size when the form opened. */
  waiting?: number;
}

/** A product's option on the form: '' for 'Sin tallas'. */
export interface OptionFormValues {
  optionName: "" | OptionName;
  options: OptionValueFormValues[];
}
