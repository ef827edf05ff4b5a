import { describe, expect, it } from "vitest";
import { DEMO_SHOP_DETAILS } from "~/config/shop-details";
import type { Order } from "../order";
import { cancellationEmail } from "./cancellation";
import { confirmationEmail } from "./confirmation";
import type { LinePhotos } from "./order-parts";
import { shipmentEmail } from "./shipment";
import { voucherCancelledEmail, voucherEmail, voucherEndedEmail } from "./voucher-emails";

/*
 * The order e-mails built from the shared components (decision 47): pieces with their photos,
 * 'Ver mi pedido', the total, a text part with the same links, and whatever a person typed escaped.
 */

const shop = { ...DEMO_SHOP_DETAILS, processVideoUrl: null };
const pageUrl = "https://orodeluna.mx/mi-pedido/OL-ABCD1234?firma=f1rma-Seg_ura";
const photos: LinePhotos = [
  { url: "https://orodeluna.mx/media/drops/d/caracola-480.webp", alt: "Collar Caracola" },
  { url: "https://orodeluna.mx/media/drops/d/marea-480.webp", alt: "Anillo Marea talla 7" },
];

const order = {
  id: "OL-ABCD1234",
  status: "pendiente",
  total: "$24,450.00",
  installmentMonths: null,
  cardFunding: null,
  customerName: "Ana Pérez",
  customerEmail: "ana@example.mx",
  shippingRate: { method: "express", label: "Envío express (1 a 2 días hábiles)", cents: 35_000 },
  shipping: {
    name: "Ana Pérez",
    phone: "951 123 4567",
    line1: "Macedonio Alcalá 100",
    line2: "Centro",
    city: "Oaxaca de Juárez",
    state: "Oaxaca",
    postalCode: "68000",
    country: "MX",
  },
  lines: [
    { name: "Collar Caracola", quantity: 2, unitPriceCents: 980_000, edition: "Piezas 2 y 3 de 30" },
    { name: "Anillo Marea talla 7", quantity: 1, unitPriceCents: 450_000, edition: null },
  ],
  carrier: "Estafeta",
  trackingNumber: "805212345678MX",
  trackingUrl: "https://www.estafeta.com/rastrear-envio?guias=805212345678MX",
  voucher: null,
  cancellation: null,
} as unknown as Order;

/** Every web address the HTML links to (not mailto:). */
function webLinks(html: string): string[] {
  return [...html.matchAll(/href="(https?:[^"]+)"/g)].map((m) => (m[1] ?? "").replaceAll("&amp;", "&"));
}

describe("the order confirmation", () => {
  it("shows each piece's photo named by the piece, the total, 'Ver mi pedido'; its text part has the same links", async () => {
    const message = await confirmationEmail(order, shop, pageUrl, photos);
    expect(message.subject).toBe("Tu pedido OL-ABCD1234 está confirmado");
    const { html, text } = message;
    expect(html).toContain(
      '<img src="https://orodeluna.mx/media/drops/d/caracola-480.webp" alt="Collar Caracola"',
    );
    expect(html).toContain(
      '<img src="https://orodeluna.mx/media/drops/d/marea-480.webp" alt="Anillo Marea talla 7"',
    );
    expect(html).toContain("Collar Caracola × 2");
    expect(html).toContain("Piezas 2 y 3 de 30");
    expect(html).toContain("<strong>$24,450.00 MXN</strong>");
    expect(html).toMatch(
      /<a href="https:\/\/orodeluna\.mx\/mi-pedido\/OL-ABCD1234\?firma=f1rma-Seg_ura"[^>]*>Ver mi pedido<\/a>/,
    );
    expect(html).toContain("68000 Oaxaca de Juárez, Oaxaca");
    expect(text).toContain(`Ve tu pedido en cualquier momento (Mi pedido): ${pageUrl}`);
    expect(text).toContain("Total: $24,450.00 MXN, IVA incluido");
    expect(text).toContain("- Collar Caracola × 2: $19,600.00 (Piezas 2 y 3 de 30)");
    const links = webLinks(html);
    expect(links).toContain(pageUrl);
    for (const link of links) expect(text, link).toContain(link);
  });

  it("without a name from the payment, its title and the shipment's thank her without one, not as 'Hola'", async () => {
    for (const customerName of ["", "   ", " Ana Pérez"]) {
      const unnamed = { ...order, customerName } as Order;
      const confirmation = await confirmationEmail(unnamed, shop, pageUrl, []);
      const shipment = await shipmentEmail(unnamed, shop, pageUrl, []);
      const name = customerName.trim() ? ", Ana" : "";
      expect(confirmation.html, customerName).toContain(`¡Gracias por tu compra${name}!`);
      expect(shipment.html, customerName).toContain(`¡Tu pedido va en camino${name}!`);
      expect(confirmation.text, customerName).toContain(`${name ? "Ana" : "Hola"}, gracias por tu compra`);
    }
  });

  it("escapes what the buyer typed: a name with <script>, a piece's name, the address", async () => {
    const evil = {
      ...order,
      customerName: "<script>alert(1)</script> Pérez",
      lines: [{ ...order.lines[0], name: 'Collar "<img src=x onerror=alert(1)>"' }],
      shipping: { ...order.shipping, line1: "<b>Calle</b> & 5" },
    } as Order;
    const { html, text } = await confirmationEmail(evil, shop, pageUrl, [
      { url: "https://orodeluna.mx/a.webp", alt: 'Collar "<img src=x onerror=alert(1)>"' },
    ]);
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<b>Calle");
    expect(html).toContain("¡Gracias por tu compra, &lt;script&gt;alert(1)&lt;/script&gt;!");
    expect(html).toContain("&lt;b&gt;Calle&lt;/b&gt; &amp; 5");
    expect(html).toContain('alt="Collar &quot;&lt;img src=x onerror=alert(1)&gt;&quot;"');
    // The text part is plain text: as typed.
    expect(text).toContain("<script>alert(1)</script>, gracias por tu compra");
  });

  it("without a public address: no photos and no 'Ver mi pedido', the rest as ever", async () => {
    const { html, text } = await confirmationEmail(order, shop);
    expect(html).not.toMatch(/<img\b/);
    expect(html).not.toContain("Ver mi pedido");
    expect(text).not.toContain("Mi pedido");
    expect(html).toContain("Collar Caracola × 2");
  });

  it("renders quickly enough for the queue (a few ms in production; logged)", async () => {
    await confirmationEmail(order, shop, pageUrl, photos);
    const rounds = 20;
    const started = performance.now();
    for (let i = 0; i < rounds; i++) await confirmationEmail(order, shop, pageUrl, photos);
    const each = (performance.now() - started) / rounds;
    console.log(`order confirmation: ${each.toFixed(2)} ms a render (React ${process.env.NODE_ENV} build)`);
    // The test runner loads React's development build (several times slower than production's).
    expect(each).toBeLessThan(100);
  });
});

describe("every order e-mail", () => {
  const voucherOrder = {
    ...order,
    status: "esperando_pago",
    voucher: {
      method: "oxxo",
      reference: "93000012345678",
      clabe: null,
      url: "https://pagos.example/ficha/93000012345678?a=1&b=2",
      expiresAt: new Date("2026-11-28T18:00:00Z"),
    },
  } as Order;
  const voucherCancelled = {
    ...voucherOrder,
    status: "cancelado",
    voucherCancelled: {
      reason: "«Mareas» permite 1 por persona y ya había 1 pieza pagada con el mismo correo.",
      at: new Date("2026-11-26T18:00:00Z"),
    },
  } as Order;
  const cases: [string, () => ReturnType<typeof confirmationEmail | typeof voucherEmail>][] = [
    ["confirmation", () => confirmationEmail(order, shop, pageUrl, photos)],
    ["shipment", () => shipmentEmail(order, shop, pageUrl, photos)],
    [
      "cancellation",
      () =>
        cancellationEmail(
          {
            ...order,
            status: "cancelado",
            cancellation: { reason: "Cancelado por la tienda", byShop: true, amountCents: 2_445_000 },
          } as Order,
          shop,
          pageUrl,
          photos,
        ),
    ],
    ["voucher", () => voucherEmail(voucherOrder, shop, pageUrl, photos)],
    [
      "voucher ended",
      () => voucherEndedEmail({ ...voucherOrder, status: "expirado" } as Order, shop, pageUrl, photos),
    ],
    ["voucher cancelled", () => voucherCancelledEmail(voucherCancelled, shop, pageUrl, photos)],
  ];

  it.each(cases)(
    "the %s links 'Mi pedido', shows the photos, and its text part carries every link",
    async (_, build) => {
      const message = await build();
      if (!message) throw new Error("no message");
      expect(message.html).toContain(`href="${pageUrl}"`);
      expect(message.html).toContain("Ver mi pedido");
      expect(message.html).toContain('alt="Collar Caracola"');
      expect(message.html).toContain("$24,450.00 MXN");
      expect(message.text).toContain(`(Mi pedido): ${pageUrl}`);
      for (const link of webLinks(message.html)) expect(message.text, link).toContain(link);
    },
  );

  it.each(cases)(
    "the %s's contact links are underlined and its small print is at least 13 px",
    async (_, build) => {
      const message = await build();
      if (!message) throw new Error("no message");
      const contacts = [
        ...message.html.matchAll(/<a href="(?:mailto:|https:\/\/wa\.me\/)[^"]*" style="([^"]*)"/g),
      ];
      expect(contacts).toHaveLength(2);
      for (const [, style] of contacts) expect(style).toMatch(/text-decoration(?:-line)?:underline/);
      const sizes = [...message.html.matchAll(/font-size:(\d+)px/g)].map(([, px]) => Number(px));
      expect(Math.min(...sizes)).toBeGreaterThanOrEqual(13);
    },
  );

  it("a cancellation says where the refund went: the card's statement, or the account a transfer came from", async () => {
    const cancelled = (voucher: Order["voucher"]) =>
      cancellationEmail(
        {
          ...order,
          status: "cancelado",
          voucher,
          cancellation: { reason: "Cancelado por la tienda", byShop: true, amountCents: 2_445_000 },
        } as Order,
        shop,
        pageUrl,
      );
    const card = await cancelled(null);
    expect(card?.text).toContain("al mismo medio con que pagaste");
    expect(card?.text).toContain("estado de cuenta");
    const spei = await cancelled({ ...voucherOrder.voucher, method: "spei" } as Order["voucher"]);
    expect(spei?.text).toContain(
      "Ya hicimos el reembolso de $24,450.00 MXN a la cuenta desde la que transferiste.",
    );
    expect(spei?.text).not.toContain("estado de cuenta");
    expect(spei?.text).not.toContain("mismo medio");
  });

  it("a cancellation for a charge that was not the order's total says so, not the per-person limit", async () => {
    const message = await cancellationEmail(
      {
        ...order,
        status: "cancelado",
        cancellation: {
          reason: "El cobro no coincidió con el total del pedido: se devuelve lo cobrado",
          mismatch: true,
          amountCents: 2_445_100,
        },
      } as Order,
      shop,
      pageUrl,
    );
    expect(message?.text).toContain("no coincidió con su total");
    expect(message?.text).toContain("Ya hicimos el reembolso de $24,451.00 MXN");
    expect(message?.text).not.toContain("máximo de piezas");
  });

  it("a voucher cancelled over the per-person limit says why, that it can no longer be paid and nothing was charged; never a refund", async () => {
    const message = await voucherCancelledEmail(voucherCancelled, shop, pageUrl);
    if (!message) throw new Error("sin correo");
    expect(message?.subject).toBe("Cancelamos tu ficha del pedido OL-ABCD1234");
    expect(message?.text).toContain(
      "porque pasa del máximo de piezas por persona de la colección: «Mareas» permite 1 por persona",
    );
    expect(message?.text).toContain("Esa ficha ya no se puede pagar: no la pagues. No se te cobró nada.");
    expect(message?.text).toContain("dos personas distintas que comparten una dirección");
    expect(`${message?.subject} ${message?.text}`).not.toMatch(/reembols|devolv/i);
    // A SPEI transfer cannot be stopped at the bank: she is told not to make it, and what if she did.
    const spei = await voucherCancelledEmail(
      { ...voucherCancelled, voucher: { ...voucherCancelled.voucher, method: "spei" } } as Order,
      shop,
      pageUrl,
    );
    if (!spei) throw new Error("sin correo");
    expect(spei.text).toContain(
      "No hagas la transferencia: ya no se aplicará a tu pedido. No se te cobró nada.",
    );
    expect(spei.text).not.toContain("ya no se puede pagar");
    // Only for a voucher cancelled so: not for one still to pay, nor a paid order cancelled.
    expect(await voucherCancelledEmail(voucherOrder, shop, pageUrl)).toBeNull();
    expect(await voucherCancelledEmail({ ...order, status: "cancelado" } as Order, shop, pageUrl)).toBeNull();
  });

  it("the shipment notice keeps its tracking button and lines", async () => {
    const { html, text } = await shipmentEmail(order, shop, pageUrl, photos);
    expect(html).toContain(`href="${order.trackingUrl}"`);
    expect(html).toContain("Sigue tu envío");
    expect(text).toContain("Paquetería: Estafeta");
    expect(text).toContain("Número de guía: 805212345678MX");
    expect(text).toContain(`Sigue tu envío: ${order.trackingUrl}`);
  });

  it("a corrected shipment notice says it corrects the one before, subject and title first", async () => {
    const { subject, html, text } = await shipmentEmail(order, shop, pageUrl, photos, { corrected: true });
    expect(subject).toBe(`Corregimos la guía de envío de tu pedido ${order.id}`);
    expect(html).toContain("Corregimos tu guía de envío");
    expect(text.split("\n")[0]).toMatch(/^.+, corregimos la guía de envío de tu pedido /);
    expect(text).toContain("La guía que te enviamos antes tenía un error: esta es la correcta.");
    expect(text).toContain("Número de guía: 805212345678MX");
    expect(html).toContain("Sigue tu envío");
  });
});
