import { loadConfig } from "~/config/env.server";
import type { Database } from "~/db/database.server";
import { deliverPendingEmails } from "~/mail/delivery.server";
import { createSmtpMailer } from "~/mail/mailer.server";
import { orderEmailTemplates } from "~/orders/emails/templates.server";
import { returnEmailTemplates } from "~/returns/templates.server";
import { settingsFromEnvironment } from "~/settings/settings";
import { readable, type startSmtp } from "./smtp";

const shop = loadConfig({}).shop;

/**
 * Sends the shop's queued order e-mails over real SMTP to `smtp` and returns what `to` received
 * (any case of the address), as a person reads it.
 */
export async function orderMailTo(
  database: Database,
  smtp: Awaited<ReturnType<typeof startSmtp>>,
  to: string,
): Promise<string[]> {
  const mailer = createSmtpMailer(`smtp://127.0.0.1:${smtp.port}`, '"Oro de Luna" <hola@orodeluna.mx>');
  await deliverPendingEmails(database.db, mailer, {
    ...orderEmailTemplates(database.db, () => settingsFromEnvironment(shop)),
    ...returnEmailTemplates(
      database.db,
      () => shop,
      async () => null,
    ),
  });
  const wanted = to.toLowerCase();
  return smtp.received
    .filter((m) => m.to.some((address) => address.toLowerCase() === wanted))
    .map((m) => readable(m.raw));
}
