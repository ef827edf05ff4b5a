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
import { getOrder } from "../queries.server";
import { cancellationEmail } from "./cancellation";
import { confirmationEmail } from "./confirmation";
import { shipmentEmail } from "./shipment";
import { voucherEmail, voucherEndedEmail } from "./voucher";

/**
 * The order e-mails the mail queue can render. Each reads its order when it is sent, so a
 * corrected tracking number is what the customer reads. The settings are read at each send.
 */
export function orderEmailTemplates(db: Db, settings: () => ShopSettings): EmailTemplates {
  const withOrder =
    (render: (order: Order, shop: PublicShopSettings) => Omit<MailMessage, "to"> | null) =>
    async ({ orderId }: { orderId: string | null }) => {
      const order = orderId ? await getOrder(db, orderId) : null;
      if (!order) return null;
      const { shop, carriers } = settings();
      return render(withTrackingLink(order, carriers), shop);
    };
  return {
    [CONFIRMATION_EMAIL]: withOrder(confirmationEmail),
    [SHIPMENT_EMAIL]: withOrder(shipmentEmail),
    [CANCELLATION_EMAIL]: withOrder(cancellationEmail),
    [VOUCHER_EMAIL]: withOrder(voucherEmail),
    [VOUCHER_ENDED_EMAIL]: withOrder(voucherEndedEmail),
  };
}
