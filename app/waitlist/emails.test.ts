import { describe, expect, it } from "vitest";
import { DEMO_SHOP_DETAILS } from "~/config/shop-details";
import { confirmationNotice, openingNotice, type WaitlistEmailData } from "./emails";

/* The 'Avísame' e-mails built from the shared components (decision 47). */

const shop = { ...DEMO_SHOP_DETAILS, processVideoUrl: null };
const origin = "https://orodeluna.mx";
const data: WaitlistEmailData = {
  dropName: "Luna <de> Octubre",
  startAt: new Date("2026-10-01T16:00:00Z"),
  endAt: new Date("2026-10-03T16:00:00Z"),
  dropUrl: `${origin}/coleccion/d1`,
  confirmUrl: `${origin}/avisame/confirmar?t=abc.def`,
  confirmWithinDays: 7,
  unsubscribeUrl: `${origin}/avisame/baja?t=abc.def`,
  showcase: {
    cover: { url: `${origin}/media/drops/d1/portada-960.webp`, alt: "" },
    pieces: [
      {
        name: "Anillo Ola",
        price: "$4,800.00",
        url: `${origin}/coleccion/d1/producto/p1`,
        image: { url: `${origin}/media/drops/d1/ola-480.webp`, alt: "Anillo de oro sobre arena" },
      },
    ],
  },
};

function webLinks(html: string): string[] {
  return [...html.matchAll(/href="(https?:[^"]+)"/g)].map((m) => (m[1] ?? "").replaceAll("&amp;", "&"));
}

describe("the 'Avísame' e-mails", () => {
  it("the confirmation: its button, the way off the list, the list headers; the text part has every link", async () => {
    const message = await confirmationNotice(data, shop);
    expect(message.subject).toBe("Confirma tu aviso para Luna <de> Octubre");
    expect(message.html).toContain(`href="${data.confirmUrl}"`);
    expect(message.html).toContain("Confirmar mi correo");
    expect(message.html).toContain("Luna &lt;de&gt; Octubre");
    expect(message.html).toContain(`href="${data.unsubscribeUrl}"`);
    expect(message.headers).toEqual({
      "List-Unsubscribe": `<${data.unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    for (const link of webLinks(message.html)) expect(message.text, link).toContain(link);
  });

  it("the opening: the cover and each piece's photo, linked to its page; the text part has every link", async () => {
    const message = await openingNotice(data, shop);
    expect(message.subject).toBe("¡Ya abrió Luna <de> Octubre!");
    expect(message.html).toContain(
      `<img src="${origin}/media/drops/d1/portada-960.webp" alt="Luna &lt;de&gt; Octubre"`,
    );
    expect(message.html).toContain(
      `<img src="${origin}/media/drops/d1/ola-480.webp" alt="Anillo de oro sobre arena"`,
    );
    expect(message.html).toContain(`href="${data.dropUrl}"`);
    expect(message.html).toContain("Ver la colección");
    for (const link of webLinks(message.html)) expect(message.text, link).toContain(link);
  });
});
