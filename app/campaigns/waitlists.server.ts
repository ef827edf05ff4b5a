import { type Db, toDate, toTimestamp } from "~/db/database.server";
import { type SignUpEntry, signUpsCsv } from "./waitlist-csv";

/*
 * The owner's view of the 'Avísame' lists (decision 25): per drop, how many signed up and how they
 * stand, the addresses themselves and the spreadsheet. Read-only: the lists change only through
 * the shoppers' own links (decision 16).
 */

export interface WaitlistCounts {
  /** Every sign-up, whatever it became. */
  total: number;
  confirmadas: number;
  pendientes: number;
  bajas: number;
}

/**
 * Sign-ups answered as accepted that sent no confirmation because of a cap (decision 31): the
 * recipient's mailbox (`buzon`), the address they came from (`direccion`), the shop's hour (`tienda`).
 */
export interface MailRefusalCounts {
  total: number;
  buzon: number;
  direccion: number;
  tienda: number;
}

export interface CampaignDrop {
  id: string;
  name: string;
  startAt: Date;
  endAt: Date;
  counts: WaitlistCounts;
  refusals: MailRefusalCounts;
}

/** The page shows the newest addresses; the spreadsheet has them all. */
export const SIGN_UPS_SHOWN = 200;

const emptyCounts = (): WaitlistCounts => ({ total: 0, confirmadas: 0, pendientes: 0, bajas: 0 });

async function countsOf(db: Db, dropIds: readonly string[]): Promise<Map<string, WaitlistCounts>> {
  const counts = new Map(dropIds.map((id) => [id, emptyCounts()]));
  if (dropIds.length === 0) return counts;
  const rows = await db
    .selectFrom("waitlist_subscriptions")
    .select(["drop_id", "status", (eb) => eb.fn.countAll<string | number>().as("n")])
    .where("drop_id", "in", dropIds)
    .groupBy(["drop_id", "status"])
    .execute();
  for (const row of rows) {
    const c = counts.get(row.drop_id);
    if (!c) continue;
    const n = Number(row.n);
    c.total += n;
    if (row.status === "confirmada") c.confirmadas += n;
    else if (row.status === "pendiente") c.pendientes += n;
    else c.bajas += n;
  }
  return counts;
}

const emptyRefusals = (): MailRefusalCounts => ({ total: 0, buzon: 0, direccion: 0, tienda: 0 });

async function refusalsOf(db: Db, dropIds: readonly string[]): Promise<Map<string, MailRefusalCounts>> {
  const counts = new Map(dropIds.map((id) => [id, emptyRefusals()]));
  if (dropIds.length === 0) return counts;
  const rows = await db
    .selectFrom("waitlist_mail_refusals")
    .select(["drop_id", "reason", "refusals"])
    .where("drop_id", "in", dropIds)
    .execute();
  for (const row of rows) {
    const c = counts.get(row.drop_id);
    if (!c) continue;
    const n = Number(row.refusals);
    c[row.reason] += n;
    c.total += n;
  }
  return counts;
}

type DropRow = { id: string; name: string; start_at: Date | string; end_at: Date | string };

async function withCounts(db: Db, drops: DropRow[]): Promise<CampaignDrop[]> {
  const ids = drops.map((d) => d.id);
  const [counts, refusals] = await Promise.all([countsOf(db, ids), refusalsOf(db, ids)]);
  return drops.map((d) => ({
    id: d.id,
    name: d.name,
    startAt: toDate(d.start_at),
    endAt: toDate(d.end_at),
    counts: counts.get(d.id) ?? emptyCounts(),
    refusals: refusals.get(d.id) ?? emptyRefusals(),
  }));
}

/** Drops that take sign-ups now (Próximamente by their dates, not archived), soonest first. */
export async function upcomingCampaigns(db: Db, now = new Date()): Promise<CampaignDrop[]> {
  const drops = await db
    .selectFrom("drops")
    .select(["id", "name", "start_at", "end_at"])
    .where("status", "!=", "archivada")
    .where("start_at", ">", toTimestamp(now))
    .orderBy("start_at")
    .orderBy("id")
    .execute();
  return withCounts(db, drops);
}

/** How many drops that already opened Campañas lists (their lists stay readable, the newest first). */
export const PAST_CAMPAIGNS_SHOWN = 12;

/**
 * Drops that already opened and had an 'Avísame' list, the latest opening first: how their lists
 * stood (who confirmed, who left) stays readable after the opening.
 */
export async function pastCampaigns(db: Db, now = new Date()): Promise<CampaignDrop[]> {
  const drops = await db
    .selectFrom("drops")
    .select(["id", "name", "start_at", "end_at"])
    .where("start_at", "<=", toTimestamp(now))
    .where((eb) =>
      eb.exists(
        eb.selectFrom("waitlist_subscriptions as s").select("s.id").whereRef("s.drop_id", "=", "drops.id"),
      ),
    )
    .orderBy("start_at", "desc")
    .orderBy("id")
    .limit(PAST_CAMPAIGNS_SHOWN)
    .execute();
  return withCounts(db, drops);
}

/** One drop with its list's counts, whatever its dates (its list stays readable after it opens). */
export async function campaignDrop(db: Db, dropId: string): Promise<CampaignDrop | null> {
  const drop = await db
    .selectFrom("drops")
    .select(["id", "name", "start_at", "end_at"])
    .where("id", "=", dropId)
    .executeTakeFirst();
  return drop ? ((await withCounts(db, [drop]))[0] ?? null) : null;
}

/** A drop's addresses, newest first (`limit` of them when given). */
export async function listSignUps(db: Db, dropId: string, limit?: number): Promise<SignUpEntry[]> {
  const rows = await db
    .selectFrom("waitlist_subscriptions")
    .select(["email", "status", "created_at", "confirmed_at", "unsubscribed_at", "notified_at"])
    .where("drop_id", "=", dropId)
    .orderBy("created_at", "desc")
    .orderBy("email")
    .$if(limit !== undefined, (q) => q.limit(limit ?? 0))
    .execute();
  const date = (value: Date | string | null) => (value === null ? null : toDate(value));
  return rows.map((r) => ({
    email: r.email,
    status: r.status,
    createdAt: toDate(r.created_at),
    confirmedAt: date(r.confirmed_at),
    unsubscribedAt: date(r.unsubscribed_at),
    notifiedAt: date(r.notified_at),
  }));
}

/** The whole list of a drop as a CSV file's text; null when there is no such drop. */
export async function exportSignUpsCsv(db: Db, dropId: string): Promise<string | null> {
  const drop = await db.selectFrom("drops").select("id").where("id", "=", dropId).executeTakeFirst();
  return drop ? signUpsCsv(await listSignUps(db, drop.id)) : null;
}
