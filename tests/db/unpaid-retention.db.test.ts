import { expect, it } from "vitest";
import { type Database, toTimestamp } from "~/db/database.server";
import { queueEmail } from "~/mail/queue.server";
import { releaseHold } from "~/orders/holds.server";
import { confirmPayment } from "~/orders/payment.server";
import { forgetUnpaidBuyers } from "~/orders/unpaid-retention.server";
import { oaxacaAddress, runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { hold } from "../support/orders";

const DAY = 24 * 3_600_000;

/** An order held by a browser, with a voucher buyer's data written to it as the voucher page does. */
async function voucherOrder(database: Database, piece: { id: string; dropId: string }, browser: string) {
  const order = await hold(database.db, {
    lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
    provider: "demo",
    browser,
  });
  const address = oaxacaAddress("Ana Pérez", "951 123 4567");
  await database.db
    .updateTable("orders")
    .set({
      customer_name: "Ana Pérez",
      customer_email: `ana.${browser}@example.mx`,
      ship_name: address.name,
      ship_phone: address.phone,
      ship_line1: address.line1,
      ship_city: address.city,
      ship_postal_code: address.postalCode,
      address_bucket: "10.1.2.3",
    })
    .where("id", "=", order.id)
    .execute();
  // The voucher's e-mail, sent to her.
  await queueEmail(database.db, { kind: "ficha", recipient: `ana.${browser}@example.mx`, orderId: order.id });
  return order;
}

describeEachDatabase("a buyer who never paid", (harness) => {
  it("is forgotten a month after her hold ended; a recent one and every paid order keep theirs", async () => {
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 5 });
    const old = await voucherOrder(database, piece, "vieja");
    const recent = await voucherOrder(database, piece, "reciente");
    for (const order of [old, recent]) await releaseHold(database.db, order.id);
    const ended = (order: { id: string }, daysAgo: number) =>
      database.db
        .updateTable("orders")
        .set({ expires_at: toTimestamp(new Date(Date.now() - daysAgo * DAY)) })
        .where("id", "=", order.id)
        .execute();
    await ended(old, 31);
    await ended(recent, 5);
    const paid = await hold(database.db, {
      lines: [{ productId: piece.id, dropId: piece.dropId, quantity: 1 }],
      provider: "demo",
    });
    await confirmPayment(database.db, {
      orderId: paid.id,
      customerName: "Luz Díaz",
      customerEmail: "luz@example.mx",
      shipping: oaxacaAddress("Luz Díaz", "951 765 4321"),
    });
    await ended(paid, 400);

    expect(await forgetUnpaidBuyers(database.db)).toBe(1);
    const row = (id: string) =>
      database.db
        .selectFrom("orders")
        .select([
          "status",
          "customer_name",
          "customer_email",
          "ship_phone",
          "ship_line1",
          "address_bucket",
          "total_cents",
        ])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
    expect(await row(old.id)).toMatchObject({
      status: "expirado",
      customer_name: "",
      customer_email: "",
      ship_phone: null,
      ship_line1: null,
      address_bucket: null,
    });
    expect((await row(old.id)).total_cents).toBeGreaterThan(0);
    expect(await row(recent.id)).toMatchObject({ customer_name: "Ana Pérez", ship_phone: "951 123 4567" });
    // Her address is gone from the e-mails of the order forgotten too (the mail log, its timeline).
    const recipients = async (id: string) =>
      (await database.db.selectFrom("emails").select("recipient").where("order_id", "=", id).execute()).map(
        (e) => e.recipient,
      );
    expect(await recipients(old.id)).toEqual([""]);
    expect(await recipients(recent.id)).toEqual(["ana.reciente@example.mx"]);
    expect(await row(paid.id)).toMatchObject({ customer_name: "Luz Díaz", customer_email: "luz@example.mx" });
    // Once is enough.
    expect(await forgetUnpaidBuyers(database.db)).toBe(0);
  });
});
