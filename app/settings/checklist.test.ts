import { describe, expect, it } from "vitest";
import { loadConfig } from "~/config/env.server";
import { DEMO_SHOP_DETAILS } from "~/config/shop-details";
import { hasOwnerNote, withoutOwnerNotes } from "~/content/legal";
import { type ShopState, setUpChecklist } from "./checklist";
import {
  applyOverrides,
  legalPageFor,
  modelLegalText,
  type SettingsOverrides,
  settingsFromEnvironment,
} from "./settings";

const demo = settingsFromEnvironment(loadConfig({ ENV_FILE: "" }).shop);
const ownShop = {
  name: "Joyería Alba",
  email: "hola@joyeria-alba.mx",
  whatsapp: "5213300000000",
  instagramUrl: "https://www.instagram.com/joyeria.alba",
  agencyName: "Estudio Norte",
  agencyUrl: "https://estudionorte.mx",
} satisfies SettingsOverrides;
const ownLegal = {
  legalPrivacy: "## Responsable\n\nJoyería Alba, S. A. de C. V., Calle Luna 1, Guadalajara.",
  legalShipping: "## Costo\n\nEl envío cuesta $150.",
  legalReturns: "## Devoluciones\n\nDentro de 5 días hábiles.",
  legalTerms: "## Quiénes somos\n\nJoyería Alba.",
} satisfies SettingsOverrides;

/** A shop set up in full; each test puts back what it is about. */
const setUp: ShopState = {
  settings: applyOverrides(demo, { ...ownShop, ...ownLegal }),
  mailToOutbox: false,
  demoPayments: false,
  adminsWithoutSecondFactor: [],
};
const ids = (state: ShopState) => setUpChecklist(state).map((item) => item.id);

describe("the set-up checklist", () => {
  it("the demo shop as it starts: every item, each with why it matters and where to fix it, in Spanish", () => {
    const items = setUpChecklist({
      settings: demo,
      mailToOutbox: true,
      demoPayments: true,
      adminsWithoutSecondFactor: ["admin@orodeluna.mx"],
    });
    expect(items.map((i) => i.id)).toEqual([
      "datos-de-la-tienda",
      "aviso-de-privacidad",
      "envios",
      "cambios-y-devoluciones",
      "terminos-y-condiciones",
      "correo",
      "pagos",
      "segundo-factor",
    ]);
    for (const item of items) {
      expect(item.title.length, item.id).toBeGreaterThan(10);
      expect(item.why.length, item.id).toBeGreaterThan(40);
    }
    const byId = Object.fromEntries(items.map((i) => [i.id, i]));
    expect(byId["aviso-de-privacidad"]).toMatchObject({
      title: "«Aviso de privacidad» sigue con el texto modelo",
      fix: { kind: "page", href: "/admin/settings#aviso-de-privacidad" },
    });
    expect(byId["aviso-de-privacidad"]?.why).toContain("razón social y tu domicilio");
    expect(byId["datos-de-la-tienda"]).toMatchObject({
      fix: { kind: "page", href: "/admin/settings#datos-de-la-tienda" },
    });
    expect(byId["datos-de-la-tienda"]?.why).toContain(
      "Siguen igual: Nombre de la tienda, Correo de contacto, WhatsApp, Instagram, Agencia (Powered by) y Sitio de la agencia.",
    );
    expect(byId.correo).toMatchObject({ fix: { kind: "server", text: expect.stringContaining("SMTP_URL") } });
    // A plan with a daily quota: named, so that the opening notices leave room for orders' e-mails.
    expect(byId.correo).toMatchObject({ fix: { text: expect.stringContaining("MAIL_DAILY_LIMIT") } });
    expect(byId.pagos).toMatchObject({
      fix: { kind: "server", text: expect.stringContaining("STRIPE_SECRET_KEY") },
    });
    expect(byId["segundo-factor"]?.title).toBe("Un administrador no tiene segundo factor");
    expect(byId["segundo-factor"]?.why).toContain("falta en: admin@orodeluna.mx.");
  });

  it("a shop set up in full has nothing left: the checklist is gone", () => {
    expect(setUpChecklist(setUp)).toEqual([]);
  });

  it("the environment's defaults are the demo details", () => {
    expect(demo.shop).toMatchObject(DEMO_SHOP_DETAILS);
  });

  it("each item goes when its own thing is done, and only then", () => {
    expect(ids({ ...setUp, mailToOutbox: true })).toEqual(["correo"]);
    expect(ids({ ...setUp, demoPayments: true })).toEqual(["pagos"]);
    // One demo detail left is enough to keep the item, and it is named.
    const one = setUpChecklist({
      ...setUp,
      settings: applyOverrides(demo, { ...ownShop, whatsapp: undefined, ...ownLegal }),
    });
    expect(one.map((i) => i.id)).toEqual(["datos-de-la-tienda"]);
    expect(one[0]?.why).toContain("Siguen igual: WhatsApp.");
    // The privacy notice edited: its item goes; the other three model texts stay.
    const privacyOnly = applyOverrides(demo, { ...ownShop, legalPrivacy: ownLegal.legalPrivacy });
    expect(ids({ ...setUp, settings: privacyOnly })).toEqual([
      "envios",
      "cambios-y-devoluciones",
      "terminos-y-condiciones",
    ]);
  });

  it("a legal text the owner saved with the model's note to her still in it stays on the list", () => {
    const kept = `${modelLegalText("legalPrivacy", demo.shop)}\n\nAgregamos un párrafo.`;
    expect(hasOwnerNote(kept)).toBe(true);
    const items = setUpChecklist({
      ...setUp,
      settings: applyOverrides(demo, { ...ownShop, ...ownLegal, legalPrivacy: kept }),
    });
    expect(items).toMatchObject([
      {
        id: "aviso-de-privacidad",
        title: "«Aviso de privacidad» todavía tiene una indicación para ti entre corchetes",
      },
    ]);
  });

  it("counts and names the administrators without a second factor, at most three by name", () => {
    const five = ["a@x.mx", "b@x.mx", "c@x.mx", "d@x.mx", "e@x.mx"];
    const [item] = setUpChecklist({ ...setUp, adminsWithoutSecondFactor: five });
    expect(item?.title).toBe("5 administradores no tienen segundo factor");
    expect(item?.why).toContain("falta en: a@x.mx, b@x.mx, c@x.mx y 2 más.");
  });
});

describe("a legal page as shoppers read it", () => {
  it("the model text without the notes to the owner, the rest of it kept", () => {
    for (const path of [
      "/aviso-de-privacidad",
      "/envios",
      "/cambios-y-devoluciones",
      "/terminos-y-condiciones",
    ]) {
      const page = legalPageFor(path, demo);
      expect(page?.model, path).toBe(true);
      expect(JSON.stringify(page), path).not.toContain("[Dueño");
      expect(JSON.stringify(page), path).not.toContain("Texto modelo");
    }
    const privacy = legalPageFor("/aviso-de-privacidad", demo);
    expect(privacy?.sections[0]?.heading).toBe("Responsable de tus datos");
    expect(privacy?.sections[0]?.paragraphs).toHaveLength(1);
    const shipping = legalPageFor("/envios", demo);
    expect(shipping?.sections.find((s) => s.heading === "Costo")?.paragraphs).toEqual([
      "El costo del envío depende de la opción que elijas, y lo ves en tu carrito antes de pagar.",
    ]);
  });

  it("the model pages say what the shop does: the factura and return data it keeps, the three ways to pay, returns asked from 'Mi pedido'", () => {
    const text = (path: string) => JSON.stringify(legalPageFor(path, demo));
    expect(text("/aviso-de-privacidad")).toContain(
      "Si pides factura: RFC, nombre o razón social, régimen fiscal",
    );
    expect(text("/aviso-de-privacidad")).toContain("Si pides una devolución");
    expect(text("/terminos-y-condiciones")).toContain(
      "con tarjeta, en efectivo en OXXO o por transferencia SPEI",
    );
    expect(text("/cambios-y-devoluciones")).toContain("Una devolución se pide desde «Mi pedido»");
  });

  it("an owner's note left in her own text is not shown either; a section emptied by it goes, her empty headings stay", () => {
    expect(
      withoutOwnerNotes([
        { heading: "Domicilio", paragraphs: ["[Dueño de la tienda: agrega tu domicilio.]"] },
        {
          heading: "Contacto",
          paragraphs: ["Escríbenos. [Dueño de la tienda: pon tu correo.]"],
          items: ["- a"],
        },
        { heading: "Vacía", paragraphs: [] },
      ]),
    ).toEqual([
      { heading: "Contacto", paragraphs: ["Escríbenos."], items: ["- a"] },
      { heading: "Vacía", paragraphs: [] },
    ]);
  });
});
