import type { PublicShopSettings } from "~/config/env.server";
import type { Db } from "~/db/database.server";
import {
  CANCELLATION_EMAIL,
  CONFIRMATION_EMAIL,
  SHIPMENT_EMAIL,
  VOUCHER_EMAIL,
  VOUCHER_ENDED_EMAIL,
} from "~/mail/kinds";
import type { MailMessage } from "~/mail/mailer.server";
import type { EmailTemplates } from "~/mail/queue.server";
import { withTrackingLink } from "~/settings/carriers";
import type { ShopSettings } from "~/settings/settings";
import type { Order } from "../order";
import { type OrderPageLinks, orderPagePath } from "../order-page-link.server";
import { getOrder } from "../queries.server";
import { cancellationEmail } from "./cancellation";
import { confirmationEmail } from "./confirmation";
import { shipmentEmail } from "./shipment";
import { voucherEmail, voucherEndedEmail } from "./voucher";

/**
 * The order e-mails the mail queue can render. Each reads its order when it is sent, so a
 * corrected tracking number is what the customer reads. The settings are read at each send.
 */
export function orderEmailTemplates(
  db: Db,
  settings: () => ShopSettings,
  /** 'Mi pedido': its signed links, and the shop's address when it has one (else the order's own). */
  pages?: { links: OrderPageLinks; publicUrl: string | undefined },
): EmailTemplates {
  const pageUrlOf = (order: Order) => {
    const origin = pages?.publicUrl ?? order.siteUrl;
    return pages && origin ? `${new URL(origin).origin}${orderPagePath(pages.links, order.id)}` : null;
  };
  const withOrder =
    (
      render: (
        order: Order,
        shop: PublicShopSettings,
        pageUrl: string | null,
      ) => Omit<MailMessage, "to"> | null,
    ) =>
    async ({ orderId }: { orderId: string | null }) => {
      const order = orderId ? await getOrder(db, orderId) : null;
      if (!order) return null;
      const { shop, carriers } = settings();
      return render(withTrackingLink(order, carriers), shop, pageUrlOf(order));
    };
  return {
    [CONFIRMATION_EMAIL]: withOrder(confirmationEmail),
    [SHIPMENT_EMAIL]: withOrder(shipmentEmail),
    [CANCELLATION_EMAIL]: withOrder(cancellationEmail),
    [VOUCHER_EMAIL]: withOrder(voucherEmail),
    [VOUCHER_ENDED_EMAIL]: withOrder(voucherEndedEmail),
  };
}
