import { describe, expect, it } from "vitest";
import { loadConfig } from "~/config/env.server";
import { createWaitlistLinks, verifyListToken, waitlistUrls } from "./links.server";
import { restockConfirmation, restockNotice } from "./restock-emails";

const shop = loadConfig({}).shop;
const data = {
  productName: 'Anillo <Marea> & "Luna"',
  size: "talla 7",
  price: "$4,500.00",
  productUrl: "https://tienda.mx/drop/aaaaaaaaaaaaaaaa/product/bbbbbbbbbbbbbbbb",
  image: { url: "https://tienda.mx/media/x.webp", alt: "" },
  confirmUrl: "https://tienda.mx/avisame/confirmar?t=x",
  confirmWithinDays: 7,
  unsubscribeUrl: "https://tienda.mx/avisame/baja?t=y",
};

describe("'Avísame si vuelve' e-mails", () => {
  it("the notice names the piece and its size, links its page in both parts, and escapes the name", async () => {
    const notice = await restockNotice(data, shop);
    expect(notice.subject).toBe('¡Anillo <Marea> & "Luna" en talla 7 volvió a estar disponible!');
    expect(notice.text).toContain(`Mírala aquí: ${data.productUrl}`);
    expect(notice.html).toContain(`href="${data.productUrl}"`);
    expect(notice.html).toContain("Anillo &lt;Marea&gt; &amp; ");
    expect(notice.html).toContain('src="https://tienda.mx/media/x.webp"');
    expect(notice.html).not.toContain("<Marea>");
    expect(notice.headers?.["List-Unsubscribe"]).toBe(`<${data.unsubscribeUrl}>`);
  });

  it("the confirmation carries its link and how long it lasts", async () => {
    const confirmation = await restockConfirmation({ ...data, size: null, productName: "Collar Ola" }, shop);
    expect(confirmation.subject).toBe("Confirma tu aviso para Collar Ola");
    expect(confirmation.text).toContain(data.confirmUrl);
    expect(confirmation.text).toContain("vale 7 días");
  });

  it("a piece's links are signed for the piece's list only", () => {
    const links = createWaitlistLinks("x".repeat(40));
    const urls = waitlistUrls(links, "https://tienda.mx", "abcdefghijklmnop", "pieza");
    const token = new URL(urls.confirm).searchParams.get("t");
    expect(links.verify("confirmar", token)).toBeNull();
    expect(verifyListToken(links, "confirmar", token)).toEqual({ list: "pieza", id: "abcdefghijklmnop" });
    expect(verifyListToken(links, "baja", token)).toBeNull();
    const drop = new URL(
      waitlistUrls(links, "https://tienda.mx", "abcdefghijklmnop").confirm,
    ).searchParams.get("t");
    expect(verifyListToken(links, "confirmar", drop)).toEqual({ list: "drop", id: "abcdefghijklmnop" });
  });
});
