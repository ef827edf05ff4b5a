import { data } from "react-router";
import type { CampaignAnswer } from "~/components/admin/campaigns";
import type { Db } from "~/db/database.server";
import { isId } from "~/lib/ids";
import type { MailQueue } from "~/mail/delivery.server";
import { retryFailedEmail } from "~/mail/queue.server";

/*
 * The answers of Campañas' actions, for its two pages: 'Enviar prueba' (Avísame) and 'Reenviar'
 * (Registro de correos, which /admin/campains still takes from a page opened before the log had
 * its own address).
 */

export function campaignAnswer(status: number, body: CampaignAnswer) {
  return data(body, { status, headers: { "Cache-Control": "no-store" } });
}

/** 'Reenviar' (email=…): a failed message goes again, at once (`sendSoon`). */
export async function resendAnswer(db: Db, mail: Pick<MailQueue, "sendSoon">, emailId: string) {
  const result = isId(emailId)
    ? await retryFailedEmail(db, emailId)
    : ({ ok: false, reason: "no_encontrado" } as const);
  if (result.ok) {
    mail.sendSoon();
    return campaignAnswer(200, { ok: true, message: "Correo en camino de nuevo." });
  }
  // A second click, or another tab, got there first: the message is already on its way.
  if (result.reason === "no_fallido")
    return campaignAnswer(200, { ok: true, message: "Ese correo ya va en camino." });
  return campaignAnswer(404, { ok: false, message: "Ese correo no existe." });
}
