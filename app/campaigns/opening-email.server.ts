import type { PublicShopSettings } from "~/config/env.server";
import { type Db, toDate } from "~/db/database.server";
import type { RenderedEmail } from "~/mail/components";
import { CAMPAIGN_TEST_EMAIL } from "~/mail/kinds";
import { type EmailTemplates, queueEmail } from "~/mail/queue.server";
import type { MediaStorage } from "~/media/storage.server";
import { type DropShowcase, openingNotice } from "~/waitlist/emails";
import { dropShowcase } from "~/waitlist/showcase.server";

/*
 * A drop's opening e-mail as the owner checks it before it goes (decision 25): the preview and
 * 'Enviar prueba' render it with the very template the opening job's messages use
 * (`openingNotice`, decision 16), for the drop as it is now. Only the unsubscribe link differs:
 * each confirmed address gets its own signed one, so the copy carries the page without a token.
 */

interface OpeningDrop {
  id: string;
  name: string;
  startAt: Date;
  endAt: Date;
}

/** What the opening job would send about `drop` today, with links to `origin` (and its pieces, when given). */
export function renderOpeningEmail(
  drop: OpeningDrop,
  shop: PublicShopSettings,
  origin: string,
  showcase?: DropShowcase,
): Promise<RenderedEmail> {
  const base = origin.replace(/\/+$/, "");
  return openingNotice(
    {
      dropName: drop.name,
      startAt: drop.startAt,
      endAt: drop.endAt,
      dropUrl: `${base}/coleccion/${drop.id}`,
      // The opening notice has no confirmation in it.
      confirmUrl: "",
      confirmWithinDays: 0,
      unsubscribeUrl: `${base}/avisame/baja`,
      ...(showcase ? { showcase } : {}),
    },
    shop,
  );
}

/** The subject of a test copy: marked, so nobody takes it for the real opening. */
export function testSubject(subject: string): string {
  return `[Prueba] ${subject}`;
}

export type TestEmailResult = { ok: true; emailId: string } | { ok: false; reason: "drop_no_encontrado" };

/**
 * 'Enviar prueba': queues the drop's opening e-mail to the owner (`to`), through the shop's queue
 * and mailer like every other message, so it also shows in the mail log.
 */
export async function queueTestEmail(
  db: Db,
  input: { dropId: string; to: string; siteUrl: string; now?: Date },
): Promise<TestEmailResult> {
  const drop = await db.selectFrom("drops").select("id").where("id", "=", input.dropId).executeTakeFirst();
  if (!drop) return { ok: false, reason: "drop_no_encontrado" };
  const id = await queueEmail(db, {
    kind: CAMPAIGN_TEST_EMAIL,
    recipient: input.to,
    payload: { dropId: drop.id, siteUrl: input.siteUrl },
    now: input.now,
  });
  // No dedupe key: every click is a new copy, so `id` is never null here.
  return { ok: true, emailId: id ?? "" };
}

/**
 * The template of the test copies: reads the drop when it is sent (a name changed meanwhile is
 * what the owner reads); a drop deleted meanwhile needs no test (`false`: dropped, not retried).
 */
export function campaignEmailTemplates(
  db: Db,
  shop: () => PublicShopSettings,
  publicUrl: string | undefined,
  storage?: MediaStorage,
): EmailTemplates {
  return {
    [CAMPAIGN_TEST_EMAIL]: async (email) => {
      const dropId = typeof email.payload.dropId === "string" ? email.payload.dropId : "";
      const siteUrl = typeof email.payload.siteUrl === "string" ? email.payload.siteUrl : "";
      const row = dropId
        ? await db
            .selectFrom("drops")
            .select(["id", "name", "start_at", "end_at"])
            .where("id", "=", dropId)
            .executeTakeFirst()
        : undefined;
      if (!row) return false;
      const origin = publicUrl ? new URL(publicUrl).origin : siteUrl;
      if (!origin) return null;
      const drop = { id: row.id, name: row.name, startAt: toDate(row.start_at), endAt: toDate(row.end_at) };
      const showcase = storage ? await dropShowcase(db, storage, drop.id, origin) : undefined;
      const rendered = await renderOpeningEmail(drop, shop(), origin, showcase);
      return { ...rendered, subject: testSubject(rendered.subject) };
    },
  };
}
