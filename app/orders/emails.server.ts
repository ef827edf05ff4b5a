import type { PublicShopSettings } from "~/config/env.server";
import { type Db, toDate, toTimestamp } from "~/db/database.server";
import { escapeMarkup } from "~/lib/escape";
import { formatMXN } from "~/lib/money";
import type { Mailer, MailMessage } from "~/mail/mailer.server";
import { getOrder, type OrderSummary } from "./orders.server";
import { addressLines } from "./shipping";

/** The order confirmation, in Spanish, as plain text and HTML. */
export function confirmationEmail(order: OrderSummary, shop: PublicShopSettings): MailMessage {
  const lines = order.lines.map((l) => ({
    ...l,
    unit: formatMXN(l.unitPriceCents),
    total: formatMXN(l.unitPriceCents * l.quantity),
  }));
  const firstName = order.customerName.split(" ")[0] || "Hola";
  const subject = `Tu pedido ${order.id} está confirmado`;
  const text = [
    `${firstName}, gracias por tu compra en ${shop.name}.`,
    "",
    `Pedido: ${order.id}`,
    ...lines.map((l) => `- ${l.name} × ${l.quantity}: ${l.total}`),
    `Total: ${order.total} MXN`,
    "",
    ...(order.shipping ? ["Lo enviaremos a:", ...addressLines(order.shipping), ""] : []),
    "¿Qué sigue? Preparamos tus piezas a mano en el taller. Cuando salgan, te escribiremos con la",
    "paquetería y el número de guía para que sigas tu envío.",
    "",
    `¿Dudas? Escríbenos a ${shop.email} o por WhatsApp: https://wa.me/${shop.whatsapp}`,
  ].join("\n");
  const rows = lines
    .map(
      (l) =>
        `<tr><td style="padding:6px 0">${escapeMarkup(l.name)} × ${l.quantity}</td><td style="padding:6px 0;text-align:right">${l.total}</td></tr>`,
    )
    .join("");
  const html = `<!doctype html><html lang="es-MX"><body style="font-family:Georgia,serif;color:#2b2520;background:#faf6ef;padding:24px">
<div style="max-width:520px;margin:auto;background:#fff;padding:24px;border-radius:8px">
<h1 style="font-size:22px;color:#7d5a1e">¡Gracias por tu compra, ${escapeMarkup(firstName)}!</h1>
<p>Tu pedido <strong>${escapeMarkup(order.id)}</strong> está confirmado.</p>
<table style="width:100%;border-collapse:collapse">${rows}
<tr><td style="padding:8px 0;border-top:1px solid #ddd"><strong>Total</strong></td><td style="padding:8px 0;border-top:1px solid #ddd;text-align:right"><strong>${order.total} MXN</strong></td></tr></table>
${
  order.shipping
    ? `<h2 style="font-size:16px;margin-top:24px">Lo enviaremos a</h2><p>${addressLines(order.shipping).map(escapeMarkup).join("<br>")}</p>`
    : ""
}
<h2 style="font-size:16px;margin-top:24px">¿Qué sigue?</h2>
<p>Preparamos tus piezas a mano en el taller. Cuando salgan, te escribiremos con la paquetería y el número de guía para que sigas tu envío.</p>
<p style="font-size:14px;color:#6b625a">¿Dudas? Escríbenos a <a href="mailto:${escapeMarkup(shop.email)}">${escapeMarkup(shop.email)}</a> o por <a href="https://wa.me/${escapeMarkup(shop.whatsapp)}">WhatsApp</a>.</p>
<p style="font-size:12px;color:#6b625a">${escapeMarkup(shop.name)}</p>
</div></body></html>`;
  return { to: order.customerEmail, subject, text, html };
}

/** A claim older than this is taken to have died with its server. */
const CLAIM_MINUTES = 5;
/** Give up after about three days of retries (and leave last_error for the shop to see). */
const MAX_ATTEMPTS = 30;

/** Minutes to wait after the n-th failed attempt: 5, 5, 5, 8, 16, … up to 6 hours. */
export function retryDelayMinutes(attempts: number): number {
  return Math.max(CLAIM_MINUTES, Math.min(2 ** Math.max(0, attempts - 1), 360));
}

/**
 * Sends queued e-mails. Each is claimed first (a conditional update on its last claim), so
 * several servers never send the same one at once; a failure is recorded and retried later,
 * with growing pauses, for days.
 */
export async function deliverPendingEmails(
  db: Db,
  mailer: Mailer,
  shop: PublicShopSettings,
  now = new Date(),
): Promise<{ sent: number; failed: number }> {
  const queued = await db
    .selectFrom("emails")
    .select(["id", "order_id", "kind", "attempts", "claimed_at"])
    .where("sent_at", "is", null)
    .where("attempts", "<", MAX_ATTEMPTS)
    .orderBy("created_at")
    .limit(100)
    .execute();
  const due = queued.filter(
    (e) =>
      e.claimed_at === null ||
      now.getTime() - toDate(e.claimed_at).getTime() >= retryDelayMinutes(e.attempts) * 60_000,
  );
  let sent = 0;
  let failed = 0;
  for (const email of due.slice(0, 20)) {
    const claimed = await db
      .updateTable("emails")
      .set((eb) => ({ claimed_at: toTimestamp(now), attempts: eb("attempts", "+", 1) }))
      .where("id", "=", email.id)
      .where("sent_at", "is", null)
      .where((eb) =>
        email.claimed_at === null
          ? eb("claimed_at", "is", null)
          : eb("claimed_at", "=", toTimestamp(toDate(email.claimed_at))),
      )
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) continue; // another server took it
    try {
      const order = await getOrder(db, email.order_id);
      if (!order?.customerEmail) throw new Error("pedido sin correo");
      if (email.kind !== "confirmacion") throw new Error(`tipo de correo sin plantilla: ${email.kind}`);
      await mailer.send(confirmationEmail(order, shop));
      await db
        .updateTable("emails")
        .set({ sent_at: toTimestamp(new Date()) })
        .where("id", "=", email.id)
        .execute();
      sent++;
    } catch (error) {
      failed++;
      await db
        .updateTable("emails")
        .set({ last_error: String((error as Error).message ?? error).slice(0, 500) })
        .where("id", "=", email.id)
        .execute();
    }
  }
  return { sent, failed };
}
