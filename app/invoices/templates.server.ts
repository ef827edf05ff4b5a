import type { Db } from "~/db/database.server";
import { INVOICE_REQUEST_EMAIL } from "~/mail/kinds";
import type { EmailTemplates } from "~/mail/queue.server";
import type { OrderPageLinks } from "~/orders/order-page-link.server";
import type { ShopSettings } from "~/settings/settings";
import { invoiceRequestEmail } from "./emails/invoice-request";
import { invoicePagePath } from "./invoice-page-link";
import { invoiceStandingOf } from "./requests.server";

/**
 * The invoices' e-mails the mail queue can render: the acknowledgement of a request, read from the
 * request as it stands when it is sent (a correction made meanwhile is what the buyer reads).
 */
export function invoiceEmailTemplates(
  db: Db,
  settings: () => ShopSettings,
  pages: { links: OrderPageLinks; publicUrl: string | undefined },
): EmailTemplates {
  return {
    [INVOICE_REQUEST_EMAIL]: async ({ orderId, payload }) => {
      const found = orderId ? await invoiceStandingOf(db, orderId) : null;
      const request = found?.standing.request;
      if (!found || !request) return false;
      const origin = pages.publicUrl ?? found.order.siteUrl;
      return invoiceRequestEmail(
        {
          orderId: found.order.id,
          total: found.order.total,
          rfc: request.rfc,
          name: request.name,
          postalCode: request.postalCode,
          regimen: request.regimen,
          uso: request.uso,
          email: request.email,
          corrected: payload.corrected === true,
          until: found.standing.kind === "abierta" ? found.standing.until : null,
          pageUrl: origin ? `${new URL(origin).origin}${invoicePagePath(pages.links, found.order)}` : null,
        },
        settings().shop,
      );
    },
  };
}
