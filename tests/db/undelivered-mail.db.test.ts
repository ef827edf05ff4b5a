import { expect, it } from "vitest";
import { countMailByState, countUndeliveredOrderMail, listMailLog } from "~/campaigns/mail-log.server";
import { type Database, toTimestamp } from "~/db/database.server";
import { NOT_NEEDED, queueEmail, retryFailedEmail } from "~/mail/queue.server";
import { upcomingDrop } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { paidOrder } from "../support/paid-order";

/*
 * The administration's notice of order e-mails that have not gone out (routes/admin/layout.tsx):
 * which messages it counts, and the mail log's view it links to.
 */
const DAY = 86_400_000;

/** A paid order by `email` and its confirmation e-mail's id. */
async function paidBy(database: Database, email: string) {
  const order = await paidOrder(database, { buyer: { name: "Ana Pérez", email } });
  const [mail] = await database.db
    .selectFrom("emails")
    .select("id")
    .where("order_id", "=", order.id)
    .execute();
  return { order, mailId: mail?.id ?? "" };
}

function failed(database: Database, id: string, at: Date, error = "SMTP 451 intenta más tarde") {
  return database.db
    .updateTable("emails")
    .set({ attempts: 3, last_error: error, created_at: toTimestamp(at), next_attempt_at: toTimestamp(at) })
    .where("id", "=", id)
    .execute();
}

describeEachDatabase("order e-mails that have not gone out", (harness) => {
  it("counts an order's failed e-mail of the last 7 days until it goes out, and nothing else", async () => {
    const database = await harness.fresh();
    const now = new Date();
    const db = database.db;

    // A paid order's confirmation, queued and not yet tried: not a failure.
    const waiting = await paidBy(database, "espera@example.mx");
    expect(await countUndeliveredOrderMail(db, now)).toBe(0);

    // Two that failed and are being retried, one given up by the mail server: all three count.
    await failed(database, waiting.mailId, new Date(now.getTime() - DAY));
    const refused = await paidBy(database, "rechazo@example.mx");
    await failed(database, refused.mailId, new Date(now.getTime() - 6 * DAY), "SMTP 550 5.1.1 no existe");
    const third = await paidBy(database, "tercera@example.mx");
    await failed(database, third.mailId, now);
    expect(await countUndeliveredOrderMail(db, now)).toBe(3);

    // Older than the notice's days: left to the mail log.
    const old = await paidBy(database, "vieja@example.mx");
    await failed(database, old.mailId, new Date(now.getTime() - 8 * DAY));
    expect(await countUndeliveredOrderMail(db, now)).toBe(3);

    // An 'Avísame' message that failed is no order's: not counted.
    const drop = await upcomingDrop(database, "Luna de Noviembre", DAY);
    const notice = await queueEmail(db, {
      kind: "campana_prueba",
      recipient: "lista@example.mx",
      payload: { dropId: drop.id, siteUrl: "http://tienda.test" },
    });
    await failed(database, notice ?? "", now);
    expect(await countUndeliveredOrderMail(db, now)).toBe(3);

    // The notice's link: the log's failed messages about orders, older ones too, and no other.
    const failedOrderMail = await listMailLog(db, { state: "fallido", scope: "pedidos", page: 1 });
    expect(failedOrderMail.entries.map((e) => e.recipient)).toEqual([
      "tercera@example.mx",
      "espera@example.mx",
      "rechazo@example.mx",
      "vieja@example.mx",
    ]);
    expect((await countMailByState(db, "pedidos")).fallido).toBe(4);
    expect((await countMailByState(db)).fallido).toBe(5);

    // One sent, one no longer needed: two fewer.
    await db
      .updateTable("emails")
      .set({ sent_at: toTimestamp(now), last_error: null })
      .where("id", "=", waiting.mailId)
      .execute();
    await db
      .updateTable("emails")
      .set({ sent_at: toTimestamp(now), last_error: NOT_NEEDED })
      .where("id", "=", third.mailId)
      .execute();
    expect(await countUndeliveredOrderMail(db, now)).toBe(1);
    // 'Reenviar' makes the last one due again with its retries starting over: no longer a failure.
    expect(await retryFailedEmail(db, refused.mailId)).toEqual({ ok: true });
    expect(await countUndeliveredOrderMail(db, now)).toBe(0);
  });
});
