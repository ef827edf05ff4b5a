import { sql } from "kysely";
import type { Db } from "~/db/database.server";
import { recordEvent } from "./desk.server";

/*
 * 'Renovar enlace de «Mi pedido»': the owner stops every link of an order's page signed so far (a
 * buyer who forwarded hers by mistake, a confirmation read by someone else). The order's link
 * generation is raised (order-page-link.server.ts); the buyer gets the new link from the look-up
 * by number and e-mail (/mi-pedido) or from any of her e-mails the owner sends again ('Reenviar'),
 * which are rendered when they are sent.
 *
 * Only for a paid order (kept, shipped, archived, cancelled or taken off the history alike: its
 * page shows her data): an order never paid is not the desk's, and its buyer has nothing to see.
 */

export type LinkRenewal =
  | { ok: true; linkVersion: number }
  | { ok: false; reason: "no_encontrado" | "sin_pagar" };

export async function renewOrderPageLink(db: Db, orderId: string, now = new Date()): Promise<LinkRenewal> {
  return db.transaction().execute(async (trx) => {
    const raised = await trx
      .updateTable("orders")
      .set({ link_version: sql<number>`link_version + 1` })
      .where("id", "=", orderId)
      .where("paid_at", "is not", null)
      .executeTakeFirst();
    if (Number(raised.numUpdatedRows) === 0) {
      const row = await trx.selectFrom("orders").select("id").where("id", "=", orderId).executeTakeFirst();
      return { ok: false, reason: row ? "sin_pagar" : "no_encontrado" };
    }
    const row = await trx
      .selectFrom("orders")
      .select("link_version")
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    await recordEvent(trx, orderId, "enlace_renovado", "Los enlaces anteriores dejaron de funcionar", now);
    return { ok: true, linkVersion: row.link_version };
  });
}
