import type { PublicShopSettings } from "~/config/env.server";
import type { Db } from "~/db/database.server";
import type { EmailTemplates } from "~/mail/queue.server";
import { getOrder } from "../queries.server";
import { confirmationEmail } from "./confirmation";
import { CONFIRMATION_EMAIL, SHIPMENT_EMAIL } from "./kinds";
import { shipmentEmail } from "./shipment";

/**
 * The order e-mails the mail queue can render. Each reads its order when it is sent, so a
 * corrected tracking number is what the customer reads. `shop` is read at each send.
 */
export function orderEmailTemplates(db: Db, shop: () => PublicShopSettings): EmailTemplates {
  const withOrder =
    (render: typeof confirmationEmail) =>
    async ({ orderId }: { orderId: string | null }) => {
      const order = orderId ? await getOrder(db, orderId) : null;
      return order ? render(order, shop()) : null;
    };
  return {
    [CONFIRMATION_EMAIL]: withOrder(confirmationEmail),
    [SHIPMENT_EMAIL]: withOrder(shipmentEmail),
  };
}
