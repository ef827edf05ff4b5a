import { z } from "zod";
import { safeText } from "~/lib/text";
import type { ShippingAddress } from "./shipping";

/*
 * The buyer's data as the shop's own checkout asks for it (the demo payment page) and as the orders
 * desk corrects it on a paid order not yet shipped: one schema, one set of labels and messages.
 */

// Every field is one line of text: no control characters (NUL breaks PostgreSQL's text).
export const buyerSchema = z.object({
  name: safeText().min(2, "Escribe tu nombre completo.").max(120, "Nombre: máximo 120 caracteres."),
  email: safeText().max(200, "Escribe un correo válido.").pipe(z.email("Escribe un correo válido.")),
  phone: safeText().regex(/^\+?[\d -]{10,16}$/, "Escribe un teléfono de 10 dígitos."),
  line1: safeText()
    .min(3, "Escribe la calle y el número.")
    .max(200, "Calle y número: máximo 200 caracteres."),
  line2: safeText().min(2, "Escribe la colonia.").max(200, "Colonia: máximo 200 caracteres."),
  postalCode: safeText().regex(/^\d{5}$/, "El código postal tiene 5 dígitos."),
  city: safeText().min(2, "Escribe la ciudad o municipio.").max(120, "Ciudad: máximo 120 caracteres."),
  state: safeText().min(2, "Escribe el estado.").max(60, "Estado: máximo 60 caracteres."),
});

/**
 * The owner's correction: the same fields, said to her ("el nombre", not "tu nombre"), and the
 * colonia may stay empty (an order paid on Stripe's page may have none to keep).
 */
export const buyerCorrectionSchema = buyerSchema.extend({
  name: safeText().min(2, "Escribe el nombre completo.").max(120, "Nombre: máximo 120 caracteres."),
  line2: safeText().max(200, "Colonia: máximo 200 caracteres."),
});

export type BuyerInput = z.output<typeof buyerSchema>;
export type BuyerField = keyof BuyerInput;

/** The form's fields in the order it shows them, with their Spanish labels. */
export const BUYER_FIELDS = [
  { name: "name", label: "Nombre", autoComplete: "name" },
  { name: "email", label: "Correo electrónico", autoComplete: "email", type: "email" },
  { name: "phone", label: "Teléfono", autoComplete: "tel", type: "tel" },
  { name: "line1", label: "Calle y número", autoComplete: "address-line1" },
  { name: "line2", label: "Colonia", autoComplete: "address-line2" },
  { name: "postalCode", label: "Código postal", autoComplete: "postal-code", inputMode: "numeric" },
  { name: "city", label: "Ciudad o municipio", autoComplete: "address-level2" },
  { name: "state", label: "Estado", autoComplete: "address-level1" },
] as const satisfies readonly {
  name: BuyerField;
  label: string;
  autoComplete: string;
  type?: string;
  inputMode?: string;
}[];

/** The form's fields read and checked (a missing field reads as empty; a file is not text). */
export function readBuyerForm(form: FormData, schema: typeof buyerSchema = buyerSchema) {
  return schema.safeParse(Object.fromEntries(BUYER_FIELDS.map((f) => [f.name, form.get(f.name) ?? ""])));
}

/** The first problem of each field, by its name: what the form shows beside it. */
export function buyerErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  const errors: Record<string, string> = {};
  for (const issue of issues) errors[String(issue.path[0])] ??= issue.message;
  return errors;
}

/** An order's buyer as the form shows her (an order with no address: those fields empty). */
export function buyerInputOf(order: {
  customerName: string;
  customerEmail: string;
  shipping: Omit<ShippingAddress, "name" | "country"> | null;
}): BuyerInput {
  const s = order.shipping;
  return {
    name: order.customerName,
    email: order.customerEmail,
    phone: s?.phone ?? "",
    line1: s?.line1 ?? "",
    line2: s?.line2 ?? "",
    postalCode: s?.postalCode ?? "",
    city: s?.city ?? "",
    state: s?.state ?? "",
  };
}

/** The fields whose value a correction changes, in the form's order. */
export function changedBuyerFields(before: BuyerInput, after: BuyerInput): BuyerField[] {
  return BUYER_FIELDS.map((f) => f.name).filter((name) => before[name] !== after[name]);
}

/** Those fields as the order's timeline names them: their labels, never their values. */
export function changedFieldsText(fields: readonly BuyerField[]): string {
  return BUYER_FIELDS.filter((f) => fields.includes(f.name))
    .map((f) => f.label)
    .join(", ");
}
