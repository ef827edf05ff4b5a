import type { z } from "zod";
import { MAX_PRODUCTS, NO_MAIN_IMAGE } from "./drop-input";
import { MAX_OPTION_VALUES } from "./option-input";

/*
 * A posted drop form as the schema (drop-input.ts) reads it, and the schema's refusals as the
 * form shows them: each beside its field, the first in the form's alert.
 */

/** Field errors by path ("name", "products.1.imageId") and the first one, for the form's alert. */
export function fieldErrors(error: z.ZodError): { fields: Record<string, string>; first: string } {
  const fields: Record<string, string> = {};
  const messages = error.issues.map((issue) => {
    const [list, index, field] = issue.path;
    // The spec's alert: 'Producto {n} no tiene imagen principal'.
    if (
      list === "products" &&
      typeof index === "number" &&
      field === "imageId" &&
      issue.message === NO_MAIN_IMAGE
    ) {
      return { key: issue.path.join("."), message: `Producto ${index + 1} ${NO_MAIN_IMAGE}` };
    }
    return { key: issue.path.join(".") || "form", message: issue.message };
  });
  for (const { key, message } of messages) fields[key] ??= message;
  return { fields, first: messages[0]?.message ?? "Revisa el formulario." };
}

/**
 * A submitted form as the schema reads it: `name`, `products[0].name`, `products[0].extraImageIds`
 * (repeated), `products[0].options[1].value` … into nested objects. Unknown fields are ignored by the schema.
 */
export function formToDropInput(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const products: Record<string, unknown>[] = [];
  for (const [key, raw] of form.entries()) {
    if (typeof raw !== "string") continue;
    const match = /^products\[(\d{1,3})\]\.(?:options\[(\d{1,3})\]\.)?(\w+)$/.exec(key);
    if (!match) {
      if (!(key in out)) out[key] = raw;
      continue;
    }
    const index = Number(match[1]);
    const field = match[3] ?? "";
    if (index >= MAX_PRODUCTS + 1) continue;
    const product = products[index] ?? {};
    products[index] = product;
    if (match[2] !== undefined) {
      // One value of the product's option: `products[0].options[2].stock`.
      const at = Number(match[2]);
      if (at >= MAX_OPTION_VALUES + 1) continue;
      const values = (product.options as Record<string, string>[] | undefined) ?? [];
      product.options = values;
      const value = values[at] ?? {};
      values[at] = value;
      if (!(field in value)) value[field] = raw;
    } else if (field === "extraImageIds" || field === "extraImageAlts") {
      const list = (product[field] as string[] | undefined) ?? [];
      // Ids: an empty one is no photo. Descriptions keep their places, even empty.
      if (raw || field === "extraImageAlts") list.push(raw);
      product[field] = list;
    } else if (!(field in product)) {
      product[field] = raw;
    }
  }
  out.products = products
    .filter((p) => p !== undefined)
    .map((p) => (Array.isArray(p.options) ? { ...p, options: p.options.filter((v) => v !== undefined) } : p));
  return out;
}
