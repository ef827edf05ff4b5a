import { describe, expect, it } from "vitest";
import {
  BUYER_FIELDS,
  type BuyerInput,
  buyerCorrectionSchema,
  buyerErrors,
  buyerInputOf,
  changedBuyerFields,
  changedFieldsText,
  readBuyerForm,
} from "./buyer-input";

const ANA: BuyerInput = {
  name: "Ana Pérez",
  email: "ana@example.mx",
  phone: "951 123 4567",
  line1: "Calle Macedonio Alcalá 401",
  line2: "Centro",
  postalCode: "68000",
  city: "Oaxaca de Juárez",
  state: "Oaxaca",
};

function form(values: Record<string, string | Blob>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.append(name, value);
  return data;
}

function errorsOf(values: Record<string, string | Blob>) {
  const parsed = readBuyerForm(form(values));
  return parsed.success ? {} : buyerErrors(parsed.error.issues);
}

describe("the buyer's data, as the checkout and the desk's correction read it", () => {
  it("takes a whole form, trimmed", () => {
    const parsed = readBuyerForm(form({ ...ANA, line1: "  Calle Macedonio Alcalá 410  " }));
    expect(parsed.success && parsed.data).toEqual({ ...ANA, line1: "Calle Macedonio Alcalá 410" });
  });

  it("says the checkout's message for each field it refuses, the first problem of each", () => {
    expect(errorsOf({ ...ANA, postalCode: "6800", email: "ana@", phone: "123" })).toEqual({
      email: "Escribe un correo válido.",
      phone: "Escribe un teléfono de 10 dígitos.",
      postalCode: "El código postal tiene 5 dígitos.",
    });
    expect(errorsOf({ ...ANA, line1: "x".repeat(201) })).toEqual({
      line1: "Calle y número: máximo 200 caracteres.",
    });
  });

  it("the owner's correction speaks to her and keeps an order with no colonia as it is", () => {
    const correction = (values: Record<string, string>) => {
      const parsed = readBuyerForm(form(values), buyerCorrectionSchema);
      return parsed.success ? parsed.data : buyerErrors(parsed.error.issues);
    };
    expect(correction({ ...ANA, line2: "" })).toEqual({ ...ANA, line2: "" });
    expect(correction({ ...ANA, name: "" })).toEqual({ name: "Escribe el nombre completo." });
    // The checkout still asks the buyer for hers.
    expect(errorsOf({ ...ANA, line2: "", name: "" })).toEqual({
      name: "Escribe tu nombre completo.",
      line2: "Escribe la colonia.",
    });
  });

  it("tells a missing field, a control character and a file apart from a typed value", () => {
    const { state: _state, ...withoutState } = ANA;
    expect(errorsOf(withoutState)).toEqual({ state: "Escribe el estado." });
    expect(errorsOf({ ...ANA, city: "Oaxaca\u0000" })).toEqual({
      city: "El texto contiene caracteres no permitidos.",
    });
    expect(errorsOf({ ...ANA, name: new Blob(["Ana"]) })).toEqual({ name: "Escribe un texto." });
  });

  it("reads an order's buyer, with empty address fields when it has no address", () => {
    const shipping = { ...ANA, name: "Ana", country: "MX" };
    expect(buyerInputOf({ customerName: ANA.name, customerEmail: ANA.email, shipping })).toEqual(ANA);
    expect(buyerInputOf({ customerName: "Ana", customerEmail: "a@b.mx", shipping: null })).toEqual({
      name: "Ana",
      email: "a@b.mx",
      phone: "",
      line1: "",
      line2: "",
      postalCode: "",
      city: "",
      state: "",
    });
  });

  it("names the fields a correction changes in the form's order, by their labels and never their values", () => {
    const after = { ...ANA, postalCode: "68050", email: "ana.perez@example.mx", line1: "Calle Alcalá 410" };
    const changed = changedBuyerFields(ANA, after);
    expect(changed).toEqual(["email", "line1", "postalCode"]);
    expect(changedFieldsText(changed)).toBe("Correo electrónico, Calle y número, Código postal");
    expect(changedBuyerFields(ANA, { ...ANA })).toEqual([]);
    expect(changedFieldsText([])).toBe("");
  });

  it("has one labelled field per value of the schema", () => {
    expect(BUYER_FIELDS.map((f) => f.name).sort()).toEqual(Object.keys(ANA).sort());
  });
});
