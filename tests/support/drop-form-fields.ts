import { expect } from "vitest";
import { decodeEntities } from "./page-text";

/*
 * The drops desk's form as a browser without JavaScript posts it, for the server tests: the
 * fields a page's form holds, and a create form's body.
 */

export type Fields = Record<string, string | string[]>;

const attr = (tag: string, name: string) => {
  const m = tag.match(new RegExp(`\\s${name}="([^"]*)"`));
  return m ? decodeEntities(m[1] ?? "") : undefined;
};

/**
 * The fields the drop form on a page would submit, as a browser without JavaScript sends them:
 * inputs (hidden ones included), textareas and each select's chosen option.
 */
export function formFields(html: string): [string, string][] {
  const at = html.indexOf('name="version"');
  expect(at, "the page has no drop form").toBeGreaterThan(-1);
  const form = html.slice(html.lastIndexOf("<form", at), html.indexOf("</form>", at));
  const fields: [string, string][] = [];
  for (const [tag] of form.matchAll(/<input\b[^>]*>/g)) {
    const name = attr(tag, "name");
    const type = attr(tag, "type") ?? "text";
    if (!name || type === "file" || type === "submit" || type === "button") continue;
    if ((type === "checkbox" || type === "radio") && !/\schecked=""/.test(tag)) continue;
    fields.push([name, attr(tag, "value") ?? ""]);
  }
  for (const m of form.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/g)) {
    const name = attr(m[1] ?? "", "name");
    if (name) fields.push([name, decodeEntities(m[2] ?? "")]);
  }
  for (const m of form.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g)) {
    const name = attr(m[1] ?? "", "name");
    const chosen = (m[2] ?? "").match(/<option\b[^>]*\sselected=""[^>]*>/)?.[0];
    if (name) fields.push([name, chosen ? (attr(chosen, "value") ?? "") : ""]);
  }
  return fields;
}

/** A form's fields with some replaced (or added). */
export function changed(fields: [string, string][], changes: Record<string, string>): URLSearchParams {
  const body = new URLSearchParams();
  for (const [name, value] of fields) if (!(name in changes)) body.append(name, value);
  for (const [name, value] of Object.entries(changes)) body.append(name, value);
  return body;
}

/** The create form as the page posts it: the drop's fields, then products[i].field for each product. */
export function dropBody(drop: Fields, products: Fields[]): URLSearchParams {
  const body = new URLSearchParams();
  const add = (name: string, value: string | string[]) => {
    for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
  };
  for (const [name, value] of Object.entries(drop)) add(name, value);
  products.forEach((product, i) => {
    for (const [name, value] of Object.entries(product)) add(`products[${i}].${name}`, value);
  });
  return body;
}
