import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { loadConfig } from "~/config/env.server";
import { BRAND, STORY_CARDS, TIMELINE, WORKSHOP_BEFORE_AFTER } from "~/content/brand";
import { legalPage } from "~/content/legal";
import {
  applyOverrides,
  fieldDigests,
  formValues,
  keepUntouched,
  legalPageFor,
  legalToText,
  MAX_HERO_TEXT_CHARS,
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
function formOf(
  overrides: Record<string, string> = {},
  carriers = defaults.carriers,
  steps = defaults.storefront.processSteps,
): FormData {
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
    shippingFreeFrom: String(values.shippingFreeFrom ?? ""),
    shippingStandardCost: String(values.shippingStandardCost),
    shippingExpressCost: String(values.shippingExpressCost),
    legalPrivacy: values.legalPrivacy,
    legalShipping: values.legalShipping,
    legalReturns: values.legalReturns,
    legalTerms: values.legalTerms,
    heroTitle: values.heroTitle,
    heroText: values.heroText,
    heroImage: "",
    heroImageAlt: "",
    brandStory: values.brandStory,
    ...overrides,
  };
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  carriers.forEach((c, i) => {
    form.set(`carriers[${i}].name`, c.name);
    form.set(`carriers[${i}].trackingUrl`, c.trackingUrl ?? "");
  });
  steps.forEach((step, i) => {
    form.set(`processSteps[${i}].title`, step.title);
    form.set(`processSteps[${i}].description`, step.description);
  });
  for (const list of ["storyCards", "timeline", "workshopPairs"] as const) {
    values[list].forEach((row, i) => {
      for (const [k, v] of Object.entries(row)) form.set(`${list}[${i}].${k}`, v ?? "");
    });
  }
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

describe("the storefront's story ('Tienda en línea')", () => {
  it("starts as the brand's copy, with the shop's name as the hero's title, and stores nothing", () => {
    expect(defaults.storefront.heroTitle).toBeNull();
    expect(defaults.storefront.heroText).toBe(BRAND.tagline);
    expect(defaults.storefront.brandStory).toBe(BRAND.story);
    expect(defaults.storefront.processSteps).toEqual(BRAND.process);
    expect(formValues(defaults).heroTitle).toBe(env.name);
    const result = parse(formOf());
    if (result.status !== "success") throw new Error("expected success");
    expect(result.value.heroImage).toBeNull();
    expect(overridesFrom(defaults, result.value, env)).toEqual({});
  });

  it("refuses bad values in Spanish, beside each field", () => {
    const errors = errorsOf(
      formOf(
        {
          heroTitle: "",
          heroText: "x".repeat(MAX_HERO_TEXT_CHARS + 1),
          heroImage: "../../etc/passwd",
          brandStory: "  ",
        },
        defaults.carriers,
        [{ title: "", description: "Una frase." }, ...defaults.storefront.processSteps.slice(1)],
      ),
    );
    expect(errors.heroTitle?.[0]).toBe("Escribe el título de la portada.");
    expect(errors.heroText?.[0]).toBe(`Texto de la portada: máximo ${MAX_HERO_TEXT_CHARS} caracteres.`);
    expect(errors.heroImage?.[0]).toBe("Imagen de la portada: súbela de nuevo.");
    expect(errors.brandStory?.[0]).toBe("Escribe la historia de la marca.");
    expect(errors["processSteps[0].title"]?.[0]).toBe("Escribe el título del paso.");
    expect(errorsOf(formOf({ heroTitle: "Luna\u0007" })).heroTitle?.[0]).toBe(
      "Título de la portada: contiene caracteres no permitidos.",
    );
  });

  it("wants the four steps, and a description of an uploaded photo", () => {
    const three = errorsOf(formOf({}, defaults.carriers, defaults.storefront.processSteps.slice(0, 3)));
    expect(three.processSteps?.[0]).toBe("Escribe los 4 pasos del proceso.");
    const photo = errorsOf(formOf({ heroImage: "abcdefghijkmnpqr" }));
    expect(photo.heroImageAlt?.[0]).toBe("Escribe qué muestra la imagen de la portada.");
    const described = parse(formOf({ heroImage: "abcdefghijkmnpqr", heroImageAlt: "Un anillo." }));
    expect(described.status).toBe("success");
  });

  it("stores what the owner wrote; a title equal to the shop's name keeps following the name", () => {
    const result = parse(formOf({ heroTitle: "Oro para todos los días", heroText: "Piezas hechas a mano." }));
    if (result.status !== "success") throw new Error("expected success");
    const overrides = overridesFrom(defaults, result.value, env);
    expect(overrides).toEqual({ heroTitle: "Oro para todos los días", heroText: "Piezas hechas a mano." });
    const settings = applyOverrides(defaults, parseOverrides(JSON.stringify(overrides)));
    expect(settings.storefront.heroTitle).toBe("Oro para todos los días");
    expect(settings.storefront.heroText).toBe("Piezas hechas a mano.");
    expect(settings.storefront.brandStory).toBe(BRAND.story);

    const renamed = parse(formOf({ name: "Luna Nueva", heroTitle: "Luna Nueva" }));
    if (renamed.status !== "success") throw new Error("expected success");
    expect(overridesFrom(defaults, renamed.value, env)).toEqual({ name: "Luna Nueva" });
  });
});

describe("/nosotros's story ('Tienda en línea')", () => {
  it("starts as the brand's cards, timeline and workshop pairs, pictures naming the illustrations", () => {
    const story = defaults.storefront;
    expect(story.storyCards.map((c) => c.title)).toEqual(STORY_CARDS.map((c) => c.title));
    expect(story.storyCards[0]?.image).toBe(STORY_CARDS[0]?.image.src);
    expect(story.timeline).toEqual(TIMELINE);
    expect(story.workshopPairs[0]?.after).toBe(WORKSHOP_BEFORE_AFTER[0]?.after.src);
  });

  it("refuses an empty year, a picture that is neither a photo nor an illustration, a pair without its photo", () => {
    const form = formOf();
    form.set("storyCards[1].year", "");
    form.set("storyCards[2].image", "/etc/passwd");
    form.set("timeline[0].text", "");
    form.set("workshopPairs[0].before", "");
    form.set("workshopPairs[1].afterAlt", "");
    const errors = errorsOf(form);
    expect(errors["storyCards[1].year"]?.[0]).toBe("Escribe el año (p. ej. 2016).");
    expect(errors["storyCards[2].image"]?.[0]).toBe("Foto: súbela de nuevo.");
    expect(errors["timeline[0].text"]?.[0]).toBe("Escribe el texto del momento.");
    expect(errors["workshopPairs[0].before"]?.[0]).toBe("Sube la foto de antes.");
    expect(errors["workshopPairs[1].afterAlt"]?.[0]).toBe("Escribe qué muestra la foto.");
  });

  it("stores an edited card list whole, uploaded photo included, and reads it back", () => {
    const form = formOf();
    form.set("storyCards[0].title", "Una mesa prestada");
    form.set("storyCards[0].image", "abcdefghijkmnpqr");
    form.set("storyCards[0].imageAlt", "La mesa de pino");
    const result = parse(form);
    if (result.status !== "success") throw new Error("expected success");
    const overrides = overridesFrom(defaults, result.value, env);
    expect(Object.keys(overrides)).toEqual(["storyCards"]);
    const back = applyOverrides(defaults, parseOverrides(JSON.stringify(overrides))).storefront;
    expect(back.storyCards[0]).toMatchObject({ title: "Una mesa prestada", image: "abcdefghijkmnpqr" });
    expect(back.storyCards[1]?.image).toBe(STORY_CARDS[1]?.image.src);
    expect(back.timeline).toEqual(TIMELINE);
  });
});

describe("the shipping policy the cart drawer says", () => {
  const withShipping = (text: string) => applyOverrides(defaults, { legalShipping: text });

  it("is the first sentence about the cost of the 'Envíos' page, without the notes to the owner", () => {
    expect(shippingSummary(defaults)).toBe(
      "El costo del envío depende de la opción que elijas, y lo ves en tu carrito antes de pagar.",
    );
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

describe("two tabs saving Configuración", () => {
  const shop = loadConfig({}).shop;
  it("a save from a form opened earlier keeps what another tab saved in the fields it did not touch", () => {
    const opened = formValues(settingsFromEnvironment(shop));
    const shown = fieldDigests(opened);
    // Meanwhile another tab turned OXXO on and saved.
    const now = { ...opened, oxxoEnabled: true };
    // This tab changes only the instalments' minimum.
    const saved = keepUntouched({ ...opened, installmentsMinimum: 5_000 }, shown, now);
    expect(saved.oxxoEnabled).toBe(true);
    expect(saved.installmentsMinimum).toBe(5_000);
    // Without what the form showed (an old page), every field is the one sent, as before.
    expect(keepUntouched({ ...opened, installmentsMinimum: 5_000 }, null, now).oxxoEnabled).toBe(false);
  });
});
