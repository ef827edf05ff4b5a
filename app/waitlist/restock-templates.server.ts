import type { PublicShopSettings } from "~/config/env.server";
import type { Db } from "~/db/database.server";
import { formatMXN } from "~/lib/money";
import { absoluteUrl } from "~/lib/urls";
import { RESTOCK_CONFIRM_EMAIL, RESTOCK_EMAIL } from "~/mail/kinds";
import type { EmailTemplates, QueuedEmail } from "~/mail/queue.server";
import { jpegUrl, loadMedia } from "~/media/media.server";
import type { MediaStorage } from "~/media/storage.server";
import { type WaitlistLinks, waitlistUrls } from "./links.server";
import { CONFIRM_WITHIN_DAYS } from "./opt-in.server";
import { getRestockRequest, pieceNow, type RestockRequestView } from "./restock.server";
import { restockConfirmation, restockNotice } from "./restock-emails";

/** The notice's photo: mail clients show it at 520 px at most. */
const PHOTO_WIDTH = 960;

/**
 * The 'Avísame si vuelve' e-mails the mail queue can render. Each reads its request when it is
 * sent: an address that confirmed meanwhile gets no second confirmation, one that left the lists
 * gets nothing (`false`: dropped, not retried). Links go to PUBLIC_URL, or to the address the shop
 * had when the person asked. Photo, name and price are read as they are at sending.
 */
export function restockEmailTemplates(
  db: Db,
  shop: () => PublicShopSettings,
  links: WaitlistLinks,
  publicUrl: string | undefined,
  storage: MediaStorage,
): EmailTemplates {
  const render =
    (
      wanted: RestockRequestView["status"],
      build: typeof restockNotice,
    ): ((email: QueuedEmail) => ReturnType<EmailTemplates[string]>) =>
    async (email) => {
      const id = typeof email.payload.id === "string" ? email.payload.id : "";
      const request = id ? await getRestockRequest(db, id) : null;
      if (!request || request.status !== wanted) return false;
      // "Volvió a estar disponible" only while it is: sold again or its drop closed before the
      // notice went (the mail server down for a while), it is dropped, not sent untrue.
      if (wanted === "confirmada" && (await pieceNow(db, request.id)) !== "disponible") return false;
      const origin = publicUrl ? new URL(publicUrl).origin : request.siteUrl;
      const urls = waitlistUrls(links, origin, request.id, "pieza");
      const photo = request.product.imageId
        ? (await loadMedia(db, [request.product.imageId])).get(request.product.imageId)
        : undefined;
      return build(
        {
          productName: request.product.name,
          size: request.size,
          price: formatMXN(request.product.priceCents),
          productUrl: absoluteUrl(origin, request.href),
          image: photo
            ? { url: absoluteUrl(origin, jpegUrl(storage, photo, PHOTO_WIDTH)), alt: photo.alt }
            : null,
          confirmUrl: urls.confirm,
          confirmWithinDays: CONFIRM_WITHIN_DAYS,
          unsubscribeUrl: urls.unsubscribe,
        },
        shop(),
      );
    };
  return {
    [RESTOCK_CONFIRM_EMAIL]: render("pendiente", restockConfirmation),
    [RESTOCK_EMAIL]: render("confirmada", restockNotice),
  };
}
