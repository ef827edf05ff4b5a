import { describe, expect, it } from "vitest";
import { refundWayOf } from "~/orders/order";
import {
  returnAcceptedEmail,
  returnDeclinedEmail,
  returnRefundedEmail,
  returnRequestedEmail,
} from "./emails";
import type { ReturnView } from "./queries.server";

const shop = {
  name: "Oro de Luna",
  email: "hola@orodeluna.mx",
  whatsapp: "5215512345678",
  instagramUrl: "https://instagram.com/orodeluna",
  agencyName: "",
  agencyUrl: "",
  processVideoUrl: null,
};

const view: ReturnView = {
  id: "DV-AAAA1111",
  orderId: "OL-BBBB2222",
  status: "aceptada",
  statusLabel: "Aceptada: esperando las piezas",
  reason: "No me quedó (talla o medida)",
  comment: "",
  ownerMessage: "Envíala a Calle del Taller 12 <b>Oaxaca</b>",
  requestedAt: "13 nov 2026, 12:00",
  refund: "$4,000.00",
  refundCents: 400_000,
  refundStatus: null,
  refundError: null,
  refundedAt: null,
  refundWay: " al mismo medio con que pagaste",
  shopPaysReturn: false,
  customerName: "Inés <script>Brisa",
  customerEmail: "ines@example.mx",
  lines: [
    {
      position: 1,
      name: "Anillo Sol talla 7",
      size: "7",
      quantity: 1,
      asked: 1,
      received: null,
      amount: "$4,000.00",
      unitPriceCents: 400_000,
      restock: null,
      numbers: [],
    },
  ],
};
const pageUrl = "https://orodeluna.mx/mi-pedido/OL-BBBB2222?firma=abc";
const photos = [null, { url: "https://orodeluna.mx/media/drops/x/y-480.webp", alt: "Anillo Sol talla 7" }];

describe("a return's e-mails", () => {
  it("show the piece with its photo, the owner's words as typed, the refund and 'Ver mi pedido'; the text part has the same", async () => {
    const message = await returnAcceptedEmail(view, shop, pageUrl, photos);
    expect(message.subject).toBe("Aceptamos tu devolución (OL-BBBB2222)");
    expect(message.html).toContain('src="https://orodeluna.mx/media/drops/x/y-480.webp"');
    expect(message.html).toContain('alt="Anillo Sol talla 7"');
    expect(message.html).toContain("Envíala a Calle del Taller 12 &lt;b&gt;Oaxaca&lt;/b&gt;");
    expect(message.html).not.toContain("<script>");
    expect(message.html).toContain(`href="${pageUrl}"`);
    expect(message.html).toContain("Reembolso");
    expect(message.text).toContain("Envíala a Calle del Taller 12 <b>Oaxaca</b>");
    expect(message.text).toContain("- Anillo Sol talla 7 × 1: $4,000.00");
    expect(message.text).toContain("Reembolso: $4,000.00 MXN");
    expect(message.text).toContain(pageUrl);
    expect(message.text).toContain("el envío de regreso corre por tu cuenta");
  });

  it("a piece that came damaged or was not the one bought goes back at the shop's cost, as the legal pages say", async () => {
    const damaged = await returnAcceptedEmail(
      { ...view, reason: "Llegó dañada o con un defecto", shopPaysReturn: true },
      shop,
      pageUrl,
    );
    expect(damaged.text).toContain("el envío de regreso corre por nuestra cuenta");
    expect(damaged.text).not.toContain("corre por tu cuenta");
    // One piece is spoken of as one.
    expect(damaged.text).toContain("Envíanos la pieza como te indicamos abajo");
    expect(damaged.text).toContain("como llegó dañada o no es la que pediste");
    expect(damaged.text).toContain("En cuanto llegue al taller");
    const two = await returnAcceptedEmail(
      {
        ...view,
        lines: [...view.lines, ...view.lines],
        reason: "Llegó dañada o con un defecto",
        shopPaysReturn: true,
      },
      shop,
      pageUrl,
    );
    expect(two.text).toContain("Envíanos las piezas como te indicamos abajo");
    expect(two.text).toContain("como llegaron dañadas o no son las que pediste");
    expect(two.text).toContain("En cuanto lleguen al taller");
  });

  it("a SPEI transfer is refunded to the account it came from; a card to itself; cash at OXXO by the owner", () => {
    expect(refundWayOf(null)).toBe(" al mismo medio con que pagaste");
    expect(refundWayOf("spei")).toBe(" a la cuenta desde la que transferiste");
    expect(refundWayOf("oxxo")).toBe("");
  });

  it("a return only asked for names its pieces' price, not a refund the owner has not accepted yet", async () => {
    const asked = await returnRequestedEmail({ ...view, status: "solicitada" }, shop, pageUrl);
    expect(asked.text).toContain("Precio de las piezas: $4,000.00 MXN");
    expect(asked.text).not.toContain("Reembolso:");
  });

  it("a declined return names no refund; a refunded one says it is made", async () => {
    const declined = await returnDeclinedEmail({ ...view, status: "rechazada" }, shop, pageUrl);
    expect(declined.text).not.toContain("Reembolso");
    expect(declined.html).not.toContain("Reembolso");
    const refunded = await returnRefundedEmail({ ...view, status: "reembolsada" }, shop, null);
    expect(refunded.subject).toBe("Te reembolsamos $4,000.00 MXN (OL-BBBB2222)");
    expect(refunded.text).toContain("te reembolsamos $4,000.00 MXN al mismo medio con que pagaste");
  });

  it("paid in cash at OXXO (the provider cannot refund it) or refunded by the owner herself: no 'al mismo medio'", async () => {
    const cash = { ...view, refundWay: "" };
    const accepted = await returnAcceptedEmail(cash, shop, pageUrl);
    expect(accepted.text).toContain(
      "En cuanto llegue al taller te reembolsamos $4,000.00 MXN: como pagaste en efectivo en OXXO, te escribiremos para pedirte la cuenta a la que te lo enviaremos.",
    );
    const refunded = await returnRefundedEmail({ ...cash, status: "reembolsada" }, shop, null);
    expect(refunded.text).toContain("te devolvimos $4,000.00 MXN. Si no lo ves en tu cuenta, respóndenos");
    for (const message of [accepted, refunded]) expect(message.text).not.toContain("al mismo medio");
  });
});
