import { sql } from "kysely";
import { productHref } from "~/catalogue/views.server";
import { type Db, toDate, toTimestamp } from "~/db/database.server";
import type { OptionName } from "~/db/taxonomy";
import { takeTurnsOn } from "~/db/transaction-lock.server";
import { isId, newId } from "~/lib/ids";
import { RESTOCK_CONFIRM_EMAIL, RESTOCK_EMAIL } from "~/mail/kinds";
import { queueEmail } from "~/mail/queue.server";
import type { SignUpSource } from "./mail-caps.server";
import { confirmsSince, leaveEveryList, type OptInResult, optIn } from "./opt-in.server";
import { type RestockRefusal, takesRestockRequests } from "./restock-input";
import { parseConsent, parseEmail } from "./sign-up-input";

/*
 * 'Avísame si vuelve' (issue 27, decision 46): a sold-out piece, or a sold-out size of it, takes
 * e-mail addresses, double opt-in like the drop's 'Avísame' (./opt-in.server). When pieces come
 * back (an unpaid checkout's hold ends, the owner adds stock, a returned piece goes back to stock)
 * `piecesCameBack` tells the first confirmed addresses, oldest request first: as many as pieces
 * came back, each once per request.
 */

export type RestockSignUpResult = OptInResult | { ok: false; reason: RestockRefusal };

/** How a size reads in a sentence: "talla 7", "largo 45 cm". */
export function sizeWords(option: OptionName | null, value: string): string {
  return `${option === "Largo" ? "largo" : "talla"} ${value}`;
}

/** A piece as the request's pages and e-mails name it. */
async function readPiece(db: Db, productId: string, optionId: string | null, now: Date) {
  const product = await db
    .selectFrom("products as p")
    .innerJoin("drops as d", "d.id", "p.drop_id")
    .select([
      "p.id",
      "p.name",
      "p.stock",
      "p.option_name",
      "d.id as drop_id",
      "d.start_at",
      "d.end_at",
      "d.status",
    ])
    .where("p.id", "=", productId)
    // A draft, or a drop before its 'Visible desde', does not exist for the public (decision 38).
    .where("d.visible_from", "<=", toTimestamp(now))
    .executeTakeFirst();
  if (!product) return null;
  const option = optionId
    ? await db
        .selectFrom("product_options")
        .select(["id", "value", "stock"])
        .where("id", "=", optionId)
        .where("product_id", "=", productId)
        .executeTakeFirst()
    : undefined;
  return { product, option };
}

/**
 * A shopper asks to be told when a sold-out piece (`optionId`: one of its sizes) is back. Refused
 * when the piece can be bought, when its drop is not on sale, or, for a piece with sizes, without
 * a size. A request already told (its piece came back) is put back at the end of the line.
 */
export async function askRestock(
  db: Db,
  input: {
    productId: string;
    optionId?: string | null;
    email: unknown;
    consent: unknown;
    siteUrl: string;
    from: SignUpSource;
    now?: Date;
  },
): Promise<RestockSignUpResult> {
  const now = input.now ?? new Date();
  const email = parseEmail(input.email);
  if (!email) return { ok: false, reason: "correo_invalido" };
  if (!parseConsent(input.consent)) return { ok: false, reason: "sin_consentimiento" };
  const optionId = input.optionId || null;
  // An address that cannot name a piece is not looked up (PostgreSQL refuses a NUL in a text).
  if (!isId(input.productId) || (optionId !== null && !isId(optionId))) {
    return { ok: false, reason: "pieza_no_encontrada" };
  }
  const found = await readPiece(db, input.productId, optionId, now);
  if (!found || (optionId !== null && !found.option)) return { ok: false, reason: "pieza_no_encontrada" };
  const { product, option } = found;
  const drop = { startAt: toDate(product.start_at), endAt: toDate(product.end_at), status: product.status };
  if (!takesRestockRequests(drop, now)) return { ok: false, reason: "drop_no_activo" };
  if (product.option_name !== null && !option) return { ok: false, reason: "sin_talla" };
  if ((option ? option.stock : product.stock) > 0) return { ok: false, reason: "pieza_disponible" };

  const find = (trx: Db) =>
    trx
      .selectFrom("restock_requests")
      .select(["id", "status", "confirmation_sent_at", "notified_at"])
      .where("product_id", "=", product.id)
      .where(sql<string>`coalesce(option_id, '')`, "=", optionId ?? "")
      .where("email", "=", email)
      .executeTakeFirst();
  // Told once already and asking again: a new request, at the end of the line, still confirmed.
  const seen = await find(db);
  if (seen?.status === "confirmada" && seen.notified_at !== null) {
    await db
      .updateTable("restock_requests")
      .set({ notified_at: null, created_at: toTimestamp(now) })
      .where("id", "=", seen.id)
      .where("status", "=", "confirmada")
      .where("notified_at", "is not", null)
      .execute();
    return { ok: true, outcome: "ya_confirmada", subscriptionId: seen.id };
  }
  return optIn(db, {
    email,
    dropId: product.drop_id,
    from: input.from,
    now,
    confirmKind: RESTOCK_CONFIRM_EMAIL,
    find,
    async save(trx, existing, stamp) {
      if (existing) {
        await trx
          .updateTable("restock_requests")
          .set({
            status: "pendiente",
            confirmation_sent_at: stamp,
            site_url: input.siteUrl,
            notified_at: null,
            created_at: stamp,
          })
          .where("id", "=", existing.id)
          .execute();
        return existing.id;
      }
      const id = newId();
      await trx
        .insertInto("restock_requests")
        .values({
          id,
          product_id: product.id,
          option_id: optionId,
          email,
          status: "pendiente",
          site_url: input.siteUrl,
          created_at: stamp,
          confirmation_sent_at: stamp,
        })
        .execute();
      return id;
    },
  });
}

export interface RestockRequestView {
  id: string;
  email: string;
  status: "pendiente" | "confirmada" | "baja";
  siteUrl: string;
  notifiedAt: Date | null;
  product: { id: string; dropId: string; name: string; priceCents: number; imageId: string | null };
  /** "talla 7"; null for a piece without sizes. */
  size: string | null;
  /** The piece's page, relative to the shop. */
  href: string;
}

/** A request with its piece; null when either is gone (a deleted piece or size takes its requests). */
export async function getRestockRequest(db: Db, id: string): Promise<RestockRequestView | null> {
  const row = await db
    .selectFrom("restock_requests as r")
    .innerJoin("products as p", "p.id", "r.product_id")
    .leftJoin("product_options as o", "o.id", "r.option_id")
    .select([
      "r.id",
      "r.email",
      "r.status",
      "r.site_url",
      "r.notified_at",
      "p.id as product_id",
      "p.drop_id",
      "p.name",
      "p.price_cents",
      "p.image_id",
      "p.option_name",
      "o.value as option_value",
    ])
    .where("r.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    status: row.status,
    siteUrl: row.site_url,
    notifiedAt: row.notified_at === null ? null : toDate(row.notified_at),
    product: {
      id: row.product_id,
      dropId: row.drop_id,
      name: row.name,
      priceCents: row.price_cents,
      imageId: row.image_id,
    },
    size: row.option_value === null ? null : sizeWords(row.option_name, row.option_value),
    href: productHref(row.drop_id, row.product_id),
  };
}

export type RestockLinkResult =
  | {
      ok: true;
      already: boolean;
      piece: { name: string; href: string };
      /**
       * Where the piece stands as she confirms: `cerrada` (its drop no longer sells: no notice will
       * come), `disponible` (back in stock already: no notice for what came back before), else null.
       */
      now?: "cerrada" | "disponible" | null;
    }
  | {
      ok: false;
      reason: "no_encontrado" | "dado_de_baja" | "vencido";
      piece?: { name: string; href: string };
    };

const pieceOf = (r: RestockRequestView) => ({
  name: r.size ? `${r.product.name} (${r.size})` : r.product.name,
  href: r.href,
});

/**
 * The confirmation link: idempotent; an address that left the lists is not put back by an old
 * link, and a link older than CONFIRM_WITHIN_DAYS confirms nothing.
 */
export async function confirmRestock(db: Db, id: string, now = new Date()): Promise<RestockLinkResult> {
  const changed = await db
    .updateTable("restock_requests")
    .set({ status: "confirmada", confirmed_at: toTimestamp(now) })
    .where("id", "=", id)
    .where("status", "=", "pendiente")
    .where("confirmation_sent_at", ">=", confirmsSince(now))
    .executeTakeFirst();
  const found = await getRestockRequest(db, id);
  if (!found) return { ok: false, reason: "no_encontrado" };
  if (found.status === "baja") return { ok: false, reason: "dado_de_baja" };
  if (found.status === "pendiente") return { ok: false, reason: "vencido", piece: pieceOf(found) };
  return {
    ok: true,
    already: Number(changed.numUpdatedRows) === 0,
    piece: pieceOf(found),
    now: await pieceNow(db, id, now),
  };
}

/** Whether a request's piece is past telling (its drop closed) or on the shelf already. */
export async function pieceNow(
  db: Db,
  requestId: string,
  now = new Date(),
): Promise<"cerrada" | "disponible" | null> {
  const row = await db
    .selectFrom("restock_requests as r")
    .innerJoin("products as p", "p.id", "r.product_id")
    .innerJoin("drops as d", "d.id", "p.drop_id")
    .leftJoin("product_options as o", "o.id", "r.option_id")
    .select(["d.start_at", "d.end_at", "d.status", "p.stock", "o.stock as option_stock", "r.option_id"])
    .where("r.id", "=", requestId)
    .executeTakeFirst();
  if (!row) return null;
  const dates = { startAt: toDate(row.start_at), endAt: toDate(row.end_at), status: row.status };
  if (!takesRestockRequests(dates, now)) return "cerrada";
  const stock = row.option_id ? (row.option_stock ?? 0) : row.stock;
  return stock > 0 ? "disponible" : null;
}

/** The unsubscribe link of a restock e-mail: the address leaves every list of the shop. */
export async function unsubscribeRestock(db: Db, id: string, now = new Date()): Promise<RestockLinkResult> {
  const found = await getRestockRequest(db, id);
  if (!found) return { ok: false, reason: "no_encontrado" };
  const changed = await leaveEveryList(db, found.email, now);
  return { ok: true, already: changed === 0, piece: pieceOf(found) };
}

/** What came back to stock, at one moment. */
export interface PiecesBack {
  productId: string;
  /** The size (product_options.id) the pieces are of; null or absent for a piece without sizes. */
  optionId?: string | null;
  /** How many pieces came back: at most this many addresses are told. */
  count: number;
  /**
   * What made them come back, unique to that event (e.g. `apartado:<order id>`,
   * `devolucion:<return id>`): a second call for the same event tells nobody more, whichever app
   * server makes it. Without one, each call is an event of its own.
   */
  cause?: string;
}

/** The most addresses one call tells (a restock of hundreds of pieces tells the first this many). */
const MOST_PER_CALL = 500;

/** One notice per request, piece that came back and cause, whichever server queues it. */
function noticeKey(back: PiecesBack, k: number): string | null {
  return back.cause ? `${RESTOCK_EMAIL}:${back.productId}:${back.optionId ?? ""}:${back.cause}:${k}` : null;
}

/**
 * Pieces came back to stock: the first confirmed requests for that piece (and size; a request
 * without a size takes any), oldest first, are told, one address per piece, each request once.
 * Call it in the transaction that gives the pieces back, so the notices are queued only if the
 * pieces really came back, and `mail.sendSoon()` after it commits.
 *
 * Safe with several app servers: calls for one piece take turns (an advisory lock on PostgreSQL;
 * SQLite's write lock on SQLite), each request is claimed by a conditional update (`notified_at`
 * still empty) before its e-mail is queued, and with a `cause` each piece of that event is told at
 * most once (the mail queue's dedupe key), so two notices for one piece that came back reach one
 * address, not two. Nobody is told while the piece's drop is not on sale. Returns how many were told.
 */
export async function piecesCameBack(
  db: Db,
  back: PiecesBack,
  now = new Date(),
): Promise<{ notified: number }> {
  const count = Math.min(Math.floor(back.count), MOST_PER_CALL);
  const optionId = back.optionId || null;
  if (!(count > 0) || !isId(back.productId) || (optionId !== null && !isId(optionId))) return { notified: 0 };
  // Turns are taken in a transaction: a call without one (a script, a test) gets its own.
  if (!db.isTransaction) return db.transaction().execute((trx) => piecesCameBack(trx, back, now));
  const waiting = () =>
    db
      .selectFrom("restock_requests")
      .select(["id", "email"])
      .where("product_id", "=", back.productId)
      .where((eb) =>
        optionId
          ? eb.or([eb("option_id", "=", optionId), eb("option_id", "is", null)])
          : eb("option_id", "is", null),
      )
      .where("status", "=", "confirmada")
      .where("notified_at", "is", null);
  // Most pieces that come back (a hold released on drop day) have nobody waiting: one read, no lock.
  if (!(await waiting().limit(1).executeTakeFirst())) return { notified: 0 };
  const drop = await db
    .selectFrom("products as p")
    .innerJoin("drops as d", "d.id", "p.drop_id")
    .select(["d.start_at", "d.end_at", "d.status"])
    .where("p.id", "=", back.productId)
    .executeTakeFirst();
  if (!drop) return { notified: 0 };
  if (optionId) {
    // A size the owner removed meanwhile took nothing back.
    const size = await db
      .selectFrom("product_options")
      .select("id")
      .where("id", "=", optionId)
      .where("product_id", "=", back.productId)
      .executeTakeFirst();
    if (!size) return { notified: 0 };
  }
  const dates = { startAt: toDate(drop.start_at), endAt: toDate(drop.end_at), status: drop.status };
  if (!takesRestockRequests(dates, now)) return { notified: 0 };

  await takeTurnsOn(db, `vuelve:${back.productId}:${optionId ?? ""}`);
  const stamp = toTimestamp(now);
  const tried = new Set<string>();
  let notified = 0;
  for (let k = 0; k < count; k++) {
    const key = noticeKey(back, k);
    if (key) {
      const told = await db
        .selectFrom("emails")
        .select("id")
        .where("dedupe_key", "=", key)
        .executeTakeFirst();
      if (told) continue; // this piece of this event was announced already
    }
    let done = false;
    while (!done) {
      const next = await waiting()
        .$if(tried.size > 0, (qb) => qb.where("id", "not in", [...tried]))
        .orderBy("created_at")
        .orderBy("id")
        .limit(1)
        .executeTakeFirst();
      if (!next) return { notified };
      tried.add(next.id);
      const claimed = await db
        .updateTable("restock_requests")
        .set({ notified_at: stamp })
        .where("id", "=", next.id)
        .where("status", "=", "confirmada")
        .where("notified_at", "is", null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) continue; // another server told it
      const queued = await queueEmail(db, {
        kind: RESTOCK_EMAIL,
        recipient: next.email,
        dedupeKey: key,
        payload: { id: next.id },
        now,
      });
      if (queued === null) {
        // Announced meanwhile by another call for the same event: this request keeps its place.
        await db
          .updateTable("restock_requests")
          .set({ notified_at: null })
          .where("id", "=", next.id)
          .execute();
      } else {
        notified++;
      }
      done = true;
    }
  }
  return { notified };
}
