import type { PublicShopSettings } from "~/config/env.server";
import type { Db } from "~/db/database.server";
import { WAITLIST_CONFIRM_EMAIL, WAITLIST_OPENING_EMAIL } from "~/mail/kinds";
import type { EmailTemplates, QueuedEmail } from "~/mail/queue.server";
import type { MediaStorage } from "~/media/storage.server";
import { confirmationNotice, type DropShowcase, openingNotice } from "./emails";
import { type WaitlistLinks, waitlistUrls } from "./links.server";
import { dropShowcase } from "./showcase.server";
import { CONFIRM_WITHIN_DAYS, getSubscription, type SubscriptionView } from "./waitlist.server";

/**
 * The 'Avísame' e-mails the mail queue can render. Each reads its subscription when it is sent:
 * an address that confirmed meanwhile gets no second confirmation, one that left the list gets
 * nothing (`false`: dropped, not retried). Links go to PUBLIC_URL, or to the address the shop had
 * when the person signed up. With `storage`, the opening notice shows the drop's cover and pieces.
 */
/** How long an opening's pieces, once read, serve its notices. */
const SHOWCASE_KEPT_MS = 60_000;

export function waitlistEmailTemplates(
  db: Db,
  shop: () => PublicShopSettings,
  links: WaitlistLinks,
  publicUrl: string | undefined,
  storage?: MediaStorage,
): EmailTemplates {
  // An opening sends one notice per confirmed address, hundreds in a minute: the drop's pieces are
  // read once a minute per drop, not once per message.
  const showcases = new Map<string, { at: number; showcase: Promise<DropShowcase> }>();
  const showcaseOf = (media: MediaStorage, dropId: string, origin: string) => {
    const key = `${dropId} ${origin}`;
    const kept = showcases.get(key);
    if (kept && Date.now() - kept.at < SHOWCASE_KEPT_MS) return kept.showcase;
    const showcase = dropShowcase(db, media, dropId, origin);
    showcases.set(key, { at: Date.now(), showcase });
    showcase.catch(() => showcases.delete(key));
    return showcase;
  };
  const render =
    (
      wanted: SubscriptionView["status"],
      build: typeof confirmationNotice,
    ): ((email: QueuedEmail) => ReturnType<EmailTemplates[string]>) =>
    async (email) => {
      const id = typeof email.payload.id === "string" ? email.payload.id : "";
      const subscription = id ? await getSubscription(db, id) : null;
      if (!subscription || subscription.status !== wanted) return false;
      // "It's open!" held up past the drop's end (a mail server down for days) is no longer true.
      const over =
        subscription.drop.status === "archivada" || subscription.drop.endAt.getTime() <= Date.now();
      if (build === openingNotice && over) return false;
      const origin = publicUrl ? new URL(publicUrl).origin : subscription.siteUrl;
      const urls = waitlistUrls(links, origin, subscription.id);
      const showcase =
        build === openingNotice && storage
          ? await showcaseOf(storage, subscription.drop.id, origin)
          : undefined;
      return build(
        {
          dropName: subscription.drop.name,
          startAt: subscription.drop.startAt,
          endAt: subscription.drop.endAt,
          dropUrl: `${origin}/coleccion/${subscription.drop.id}`,
          confirmUrl: urls.confirm,
          confirmWithinDays: CONFIRM_WITHIN_DAYS,
          unsubscribeUrl: urls.unsubscribe,
          ...(showcase ? { showcase } : {}),
        },
        shop(),
      );
    };
  return {
    [WAITLIST_CONFIRM_EMAIL]: render("pendiente", confirmationNotice),
    [WAITLIST_OPENING_EMAIL]: render("confirmada", openingNotice),
  };
}
