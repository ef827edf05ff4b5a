import { expect, it } from "vitest";
import { createDrop } from "~/catalogue/catalogue.server";
import { loadConfig } from "~/config/env.server";
import type { Database } from "~/db/database.server";
import { toTimestamp } from "~/db/database.server";
import { deliverPendingEmails } from "~/mail/delivery.server";
import type { Mailer, MailMessage } from "~/mail/mailer.server";
import { createLocalStorage } from "~/media/local-storage.server";
import { orderEmailTemplates } from "~/orders/emails/templates.server";
import { createOrderPageLinks } from "~/orders/order-page-link.server";
import { confirmPayment } from "~/orders/payment.server";
import { settingsFromEnvironment } from "~/settings/settings";
import { oaxacaAddress } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { hold } from "../support/orders";

/*
 * The order e-mails show each piece's photo (issue 27, decision 47): the product's main image, at
 * an absolute address on the shop's public URL (as 'Mi pedido' is), its alt text the piece's name.
 * Without a public address (and none recorded with the order) the e-mail goes without photos.
 */

const shop = loadConfig({}).shop;
const origin = "https://orodeluna.mx";
const media = createLocalStorage("/nonexistent");
const links = createOrderPageLinks("s".repeat(32));

function keeper(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    kind: "outbox",
    sent,
    async send(message) {
      sent.push(message);
    },
  };
}

/**
 * A paid order of two pieces of a running drop: one with a photo (its JPEG copies made unless
 * `jpegWidths` says otherwise), one without.
 */
async function paidOrder(database: Database, jpegWidths = "480,960"): Promise<string> {
  const now = new Date();
  await database.db
    .insertInto("media")
    .values({
      id: "foto-caracola",
      drop_id: null,
      kind: "image",
      key: "drops/x/caracola",
      width: 1600,
      height: 1600,
      widths: "480,960,1600",
      jpeg_widths: jpegWidths,
      mime: "image/webp",
      alt: "Collar sobre una mesa de madera",
      created_at: toTimestamp(now),
    })
    .execute();
  const piece = { categoria: "Collar" as const, material: "Oro amarillo" as const, stock: 3 };
  const dropId = await createDrop(database.db, {
    name: "Mareas",
    status: "activa",
    startAt: new Date(now.getTime() - 3_600_000),
    endAt: new Date(now.getTime() + 3_600_000),
    products: [
      { ...piece, name: "Collar Caracola", priceCents: 980_000, imageId: "foto-caracola" },
      { ...piece, name: "Arete Espuma", priceCents: 250_000, imageId: null },
    ],
  });
  const products = await database.db
    .selectFrom("products")
    .select(["id", "name"])
    .where("drop_id", "=", dropId)
    .orderBy("position")
    .execute();
  const order = await hold(database.db, {
    lines: products.map((p) => ({ productId: p.id, dropId, quantity: 1 })),
    provider: "demo",
  });
  await confirmPayment(database.db, {
    orderId: order.id,
    customerName: "Ana Pérez",
    customerEmail: "ana@example.mx",
    shipping: oaxacaAddress("Ana Pérez", "951 123 4567"),
  });
  return order.id;
}

/** The order's confirmation e-mail, as sent with the shop's public address (or none). */
async function confirmationOf(
  database: Database,
  publicUrl: string | undefined,
): Promise<MailMessage | undefined> {
  const mailer = keeper();
  const templates = orderEmailTemplates(
    database.db,
    () => settingsFromEnvironment(shop),
    { links, publicUrl },
    media,
  );
  expect(await deliverPendingEmails(database.db, mailer, templates)).toEqual({ sent: 1, failed: 0 });
  return mailer.sent[0];
}

describeEachDatabase("the order e-mails' photos", (harness) => {
  it("show each piece's main photo at the shop's public address, named by the piece, beside 'Ver mi pedido'", async () => {
    const database = await harness.fresh();
    const id = await paidOrder(database);
    const confirmation = await confirmationOf(database, origin);
    const html = confirmation?.html ?? "";
    // Its JPEG copy: classic Outlook shows no WebP.
    expect(html).toContain(`<img src="${origin}/media/drops/x/caracola-480.jpg" alt="Collar Caracola"`);
    // The piece without a photo is listed all the same, with no image of its own.
    expect(html).toContain("Arete Espuma × 1");
    expect(html.match(/<img\b/g)).toHaveLength(1);
    expect(html).toMatch(new RegExp(`href="${origin}/mi-pedido/${id}\\?firma=[\\w-]+"`));
    expect(confirmation?.text).toMatch(new RegExp(`Mi pedido\\): ${origin}/mi-pedido/${id}\\?firma=`));
  });

  it("a photo stored before its JPEG copies were made shows its WebP until they are", async () => {
    const database = await harness.fresh();
    await paidOrder(database, "");
    expect((await confirmationOf(database, origin))?.html).toContain(
      `<img src="${origin}/media/drops/x/caracola-480.webp"`,
    );
  });

  it("without a public address (nor one recorded with the order) the e-mail goes out without photos", async () => {
    const database = await harness.fresh();
    await paidOrder(database);
    const confirmation = await confirmationOf(database, undefined);
    expect(confirmation?.html).not.toMatch(/<img\b/);
    expect(confirmation?.html).toContain("Collar Caracola × 1");
    expect(confirmation?.html).not.toContain("Ver mi pedido");
  });
});
