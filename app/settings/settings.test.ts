import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { loadConfig } from "~/config/env.server";
import { legalPage } from "~/content/legal";
import {
  applyOverrides,
  formValues,
  legalPageFor,
  legalToText,
  overridesFrom,
  parseOverrides,
  settingsFromEnvironment,
  settingsSchema,
  shippingSummary,
  textToSections,
} from "./settings";

const env = loadConfig({}).shop;
const defaults = settingsFromEnvironment(env);

/** The form as the browser sends it: every field, carriers as carriers[i].name. */
function formOf(overrides: Record<string, string> = {}, carriers = defaults.carriers): FormData {
  const values = formValues(defaults);
  const form = new FormData();
  const fields: Record<string, string> = {
    name: values.name,
    email: values.email,
    whatsapp: values.whatsapp,
    instagramUrl: values.instagramUrl,
    agencyName: values.agencyName,
    agencyUrl: values.agencyUrl,
    processVideoUrl: values.processVideoUrl ?? "",
    defaultMaxPerOrder: "",
    legalPrivacy: values.legalPrivacy,
    legalShipping: values.legalShipping,
    legalReturns: values.legalReturns,
    legalTerms: values.legalTerms,
    ...overrides,
  };
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  carriers.forEach((c, i) => {
    form.set(`carriers[${i}].name`, c.name);
    form.set(`carriers[${i}].trackingUrl`, c.trackingUrl ?? "");
  });
  return form;
}

const parse = (form: FormData) => parseWithZod(form, { schema: settingsSchema });
const errorsOf = (form: FormData) => {
  const result = parse(form);
  return (result.status === "error" ? result.error : null) ?? {};
};

describe("the Configuración form", () => {
  it("takes the environment's values unchanged, and storing them stores nothing", () => {
    const result = parse(formOf());
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect(result.value.carriers).toEqual(defaults.carriers);
    expect(result.value.defaultMaxPerOrder).toBeNull();
    expect(overridesFrom(defaults, result.value, env)).toEqual({});
  });

  it("refuses bad values in Spanish, each on its own field", () => {
    const errors = errorsOf(
      formOf({
        name: "",
        email: "hola-sin-arroba",
        whatsapp: "55 abc",
        instagramUrl: "javascript:alert(1)",
        agencyUrl: "ftp://agencia.mx",
        processVideoUrl: "www.youtube.com/embed/x",
        defaultMaxPerOrder: "0",
      }),
    );
    expect(errors.name?.[0]).toBe("Escribe el nombre de la tienda.");
    expect(errors.email?.[0]).toMatch(/^Escribe un correo válido/);
    expect(errors.whatsapp?.[0]).toMatch(/^WhatsApp: escribe el número con lada internacional, solo dígitos/);
    expect(errors.instagramUrl?.[0]).toMatch(
      /^Instagram: escribe una dirección web completa que empiece con https:\/\//,
    );
    expect(errors.agencyUrl?.[0]).toMatch(/^Sitio de la agencia: escribe una dirección web completa/);
    expect(errors.processVideoUrl?.[0]).toMatch(/^Video del proceso: escribe una dirección web completa/);
    expect(errors.defaultMaxPerOrder?.[0]).toMatch(/^Máximo por persona: escribe un número de 1 a 100/);
  });

  it("keeps the digits of a WhatsApp number written with spaces and +", () => {
    const result = parse(formOf({ whatsapp: "+52 1 55 9876-5432" }));
    expect(result.status === "success" && result.value.whatsapp).toBe("5215598765432");
  });

  it("wants {guia} in a carrier's tracking address, and no carrier twice", () => {
    const errors = errorsOf(
      formOf({}, [
        { name: "Mensajería Oaxaca", trackingUrl: "https://mo.example/rastreo" },
        { name: "Estafeta", trackingUrl: null },
      ]),
    );
    expect(errors["carriers[0].trackingUrl"]?.[0]).toBe(
      "Seguimiento: la dirección debe incluir {guia} donde va el número de guía.",
    );
    expect(errors["carriers[1].trackingUrl"]).toBeUndefined();
    const twice = errorsOf(
      formOf({}, [
        { name: "Estafeta", trackingUrl: null },
        { name: "estafeta", trackingUrl: "https://e.example/{guia}" },
      ]),
    );
    expect(twice["carriers[1].name"]?.[0]).toBe("«estafeta» ya está en la lista.");
  });

  it("stores only what changed, and a field back at the environment's value stops being stored", () => {
    const result = parse(formOf({ name: "Luna Nueva", defaultMaxPerOrder: "2" }));
    if (result.status !== "success") throw new Error("expected success");
    const overrides = overridesFrom(defaults, result.value, env);
    expect(overrides).toEqual({ name: "Luna Nueva", defaultMaxPerOrder: 2 });
    const settings = applyOverrides(defaults, overrides);
    expect(settings.shop.name).toBe("Luna Nueva");
    expect(settings.shop.email).toBe(env.email);
    expect(settings.defaultMaxPerOrder).toBe(2);
  });

  it("keeps legal pages on the model text when the shop is renamed (the text follows the new name)", () => {
    // The form showed the model text with the old name; the owner only renamed the shop.
    const result = parse(formOf({ name: "Luna Nueva" }));
    if (result.status !== "success") throw new Error("expected success");
    const overrides = overridesFrom(defaults, result.value, env);
    expect(Object.keys(overrides)).toEqual(["name"]);
    const page = legalPageFor("/aviso-de-privacidad", applyOverrides(defaults, overrides));
    expect(page?.model).toBe(true);
    expect(JSON.stringify(page?.sections)).toContain("Luna Nueva (en adelante");
  });

  it("reads the owner's legal text back as sections, lists and paragraphs", () => {
    const text = "## Envíos\n\nA todo México.\nEn 3 días.\n\n- Estafeta\n- DHL\n\nDespués de la lista.";
    expect(textToSections(text)).toEqual([
      { heading: "Envíos", paragraphs: ["A todo México. En 3 días."], items: ["Estafeta", "DHL"] },
      { heading: "", paragraphs: ["Después de la lista."] },
    ]);
    // The model text survives the round trip.
    const model = legalPage("/envios", env).sections;
    expect(textToSections(legalToText(model))).toEqual(model);
  });

  it("ignores a stored value that no longer passes (the environment's stands)", () => {
    const overrides = parseOverrides(
      JSON.stringify({
        name: "Luna",
        agencyUrl: "javascript:x",
        carriers: [{ name: "X", trackingUrl: "https://x.mx/{guia}" }],
        otra: 1,
      }),
    );
    expect(overrides).toEqual({
      name: "Luna",
      carriers: [{ name: "X", trackingUrl: "https://x.mx/{guia}" }],
    });
    expect(parseOverrides("no es json")).toEqual({});
  });
});

describe("the shipping policy the cart drawer says", () => {
  const withShipping = (text: string) => applyOverrides(defaults, { legalShipping: text });

  it("is the first sentence about the cost of the 'Envíos' page, without the notes to the owner", () => {
    expect(shippingSummary(defaults)).toBe("El envío está incluido en el precio de las piezas.");
  });

  it("follows the owner's text, whatever the part about the cost is called", () => {
    const own = withShipping(
      "## Cobertura\n\nEnviamos a todo México.\n\n## Costos de envío\n\nEnvío gratis en compras desde $3,000; si no, $150 por pedido. Lo ves antes de pagar.",
    );
    expect(shippingSummary(own)).toBe("Envío gratis en compras desde $3,000; si no, $150 por pedido.");
  });

  it("without a part about the cost, is the page's first sentence, cut short at a word", () => {
    expect(shippingSummary(withShipping("Enviamos por paquetería a todo el país. Sin excepciones."))).toBe(
      "Enviamos por paquetería a todo el país.",
    );
    const long = shippingSummary(withShipping(`Enviamos ${"muy ".repeat(60)}rápido.`)) ?? "";
    expect(long.length).toBeLessThanOrEqual(140);
    expect(long).toMatch(/^Enviamos muy .*muy…$/);
  });
});
