import type { PublicShopSettings } from "~/config/env.server";
import type { Db } from "~/db/database.server";
import type { RenderedEmail } from "~/mail/components";
import {
  CANCELLATION_EMAIL,
  CONFIRMATION_EMAIL,
  SHIPMENT_EMAIL,
  TRACKING_CORRECTED,
  VOUCHER_CANCELLED_EMAIL,
  VOUCHER_EMAIL,
  VOUCHER_ENDED_EMAIL,
} from "~/mail/kinds";
import type { EmailTemplates } from "~/mail/queue.server";
import type { MediaStorage } from "~/media/storage.server";
import { withTrackingLink } from "~/settings/carriers";
import type { ShopSettings } from "~/settings/settings";
import type { Order } from "../order";
import { type OrderPageLinks, orderPageUrl } from "../order-page-link.server";
import { getOrder } from "../queries.server";
import { cancellationEmail } from "./cancellation";
import { confirmationEmail } from "./confirmation";
import type { LinePhotos } from "./order-parts";
import { orderLinePhotos } from "./photos.server";
import { shipmentEmail } from "./shipment";
import { voucherCancelledEmail, voucherEmail, voucherEndedEmail } from "./voucher-emails";

/**
 * One order e-mail: the order as it is now, the shop, its 'Mi pedido' link and its lines' photos
 * (null and none without a public address).
 */
export type OrderEmail = (
  order: Order,
  shop: PublicShopSettings,
  pageUrl: string | null,
  photos: LinePhotos,
  /** What the message was queued with (e.g. a shipment notice's TRACKING_CORRECTED). */
  payload: Record<string, unknown>,
) => Promise<RenderedEmail | null | false>;

/**
 * The order e-mails the mail queue can render. Each reads its order when it is sent, so a
 * corrected tracking number is what the customer reads. The settings are read at each send.
 */
export function orderEmailTemplates(
  db: Db,
  settings: () => ShopSettings,
  /** 'Mi pedido': its signed links, and the shop's address when it has one (else the order's own). */
  pages?: { links: OrderPageLinks; publicUrl: string | undefined },
  /** Where the pieces' photos are (none without it, or without a public address). */
  media?: MediaStorage,
): EmailTemplates {
  const originOf = (order: Order) => {
    const origin = pages?.publicUrl ?? order.siteUrl;
    return origin ? new URL(origin).origin : null;
  };
  const withOrder =
    (render: OrderEmail) =>
    async ({ orderId, payload }: { orderId: string | null; payload: Record<string, unknown> }) => {
      const order = orderId ? await getOrder(db, orderId) : null;
      if (!order) return null;
      const { shop, carriers } = settings();
      const origin = originOf(order);
      const pageUrl = pages ? orderPageUrl(pages, order) : null;
      const photos = media && origin ? await orderLinePhotos(db, media, order.id, origin) : [];
      return render(withTrackingLink(order, carriers), shop, pageUrl, photos, payload);
    };
  return {
    // Cancelled before it went (mail down for hours, then 'Eliminar pedido'), or asked again with
    // 'Reenviar' after: "está confirmado" would be untrue beside its cancellation.
    [CONFIRMATION_EMAIL]: withOrder(async (order, shop, pageUrl, photos) =>
      order.status === "cancelado" ? false : confirmationEmail(order, shop, pageUrl, photos),
    ),
    [SHIPMENT_EMAIL]: withOrder((order, shop, pageUrl, photos, payload) =>
      shipmentEmail(order, shop, pageUrl, photos, { corrected: payload[TRACKING_CORRECTED] === true }),
    ),
    [CANCELLATION_EMAIL]: withOrder(cancellationEmail),
    [VOUCHER_EMAIL]: withOrder(voucherEmail),
    [VOUCHER_ENDED_EMAIL]: withOrder(voucherEndedEmail),
    [VOUCHER_CANCELLED_EMAIL]: withOrder(voucherCancelledEmail),
  };
}
