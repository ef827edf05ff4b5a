import type { PublicShopSettings } from "~/config/env.server";
import type { Db } from "~/db/database.server";
import {
  RETURN_ACCEPTED_EMAIL,
  RETURN_CLOSED_EMAIL,
  RETURN_DECLINED_EMAIL,
  RETURN_REFUNDED_EMAIL,
  RETURN_REQUESTED_EMAIL,
} from "~/mail/kinds";
import type { EmailTemplates } from "~/mail/queue.server";
import type { MediaStorage } from "~/media/storage.server";
import { orderLinePhotos } from "~/orders/emails/photos.server";
import {
  returnAcceptedEmail,
  returnClosedEmail,
  returnDeclinedEmail,
  returnRefundedEmail,
  returnRequestedEmail,
} from "./emails";
import { getReturn } from "./queries.server";

/**
 * The return e-mails the mail queue can render, each reading its return when it is sent, with
 * 'Mi pedido' and, where the shop has a public address and the pieces have photos, their photos.
 */
export function returnEmailTemplates(
  db: Db,
  shop: () => PublicShopSettings,
  /** 'Mi pedido' of an order, as an absolute address; null when the shop has none to give. */
  pageUrlOf: (orderId: string) => Promise<string | null>,
  media?: MediaStorage,
): EmailTemplates {
  const withReturn =
    (render: typeof returnRequestedEmail) =>
    async ({ payload }: { payload: Record<string, unknown> }) => {
      const returnId = typeof payload.returnId === "string" ? payload.returnId : null;
      const view = returnId ? await getReturn(db, returnId) : null;
      if (!view) return null;
      const pageUrl = await pageUrlOf(view.orderId);
      const photos =
        media && pageUrl ? await orderLinePhotos(db, media, view.orderId, new URL(pageUrl).origin) : [];
      return render(view, shop(), pageUrl, photos);
    };
  return {
    [RETURN_REQUESTED_EMAIL]: withReturn(returnRequestedEmail),
    [RETURN_ACCEPTED_EMAIL]: withReturn(returnAcceptedEmail),
    [RETURN_DECLINED_EMAIL]: withReturn(returnDeclinedEmail),
    [RETURN_REFUNDED_EMAIL]: withReturn(returnRefundedEmail),
    [RETURN_CLOSED_EMAIL]: withReturn(returnClosedEmail),
  };
}
