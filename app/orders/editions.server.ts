import { sql } from "kysely";
import { type MetalFacts, metalFactsOf } from "~/catalogue/metal";
import { type Db, toTimestamp } from "~/db/database.server";
import { takeTurnsOn } from "~/db/transaction-lock.server";

/*
 * Numbered pieces (issue 24): a product may be a limited edition of N, and each paid unit gets its
 * number at payment ('Pieza 7 de 30'), the next after the product's highest. Numbers are rows with
 * the primary key (product, number), and one payment at a time numbers a product (an advisory lock
 * on PostgreSQL; SQLite writes one transaction at a time), so they are unique and gapless among
 * paid units however many payments race. An order cancelled over a per-person limit is never
 * numbered: it is cancelled before its turn. An order the shop cancels later gives its numbers back
 * when its pieces return to the shelf (decision 37); the next buyers get the lowest free ones.
 */

/** "Pieza 7 de 30"; "Piezas 7 y 8 de 30"; "Piezas 7, 8 y 9 de 30". */
export function editionText(numbers: readonly number[], size: number): string {
  if (numbers.length === 1) return `Pieza ${numbers[0]} de ${size}`;
  const listed = `${numbers.slice(0, -1).join(", ")} y ${numbers.at(-1)}`;
  return `Piezas ${listed} de ${size}`;
}

/** Gives each paid unit of the order's edition pieces its number, in the payment's transaction. */
export async function numberEditionPieces(trx: Db, orderId: string, now: Date): Promise<void> {
  const lines = await trx
    .selectFrom("order_lines as l")
    .innerJoin("products as p", "p.id", "l.product_id")
    .select(["l.position", "l.product_id", "l.quantity", "l.missing", "p.edition_size"])
    .where("l.order_id", "=", orderId)
    .where("p.edition_size", "is not", null)
    // Product by product in id order: two payments sharing editions cannot wait on each other.
    .orderBy("l.product_id")
    .orderBy("l.position")
    .execute();
  for (const line of lines) {
    const units = line.quantity - line.missing;
    if (units <= 0 || line.edition_size === null) continue;
    await takeTurnsOn(trx, `edicion:${line.product_id}`);
    const taken = new Set(
      (
        await trx
          .selectFrom("edition_numbers")
          .select("number")
          .where("product_id", "=", line.product_id)
          .execute()
      ).map((r) => r.number),
    );
    // The lowest free numbers (a cancelled piece's come back); never past the edition: more units
    // than numbers (stock raised past it) go unnumbered.
    const numbers: number[] = [];
    for (let n = 1; n <= line.edition_size && numbers.length < units; n++) if (!taken.has(n)) numbers.push(n);
    if (numbers.length === 0) continue;
    await trx
      .insertInto("edition_numbers")
      .values(
        numbers.map((number) => ({
          product_id: line.product_id,
          number,
          order_id: orderId,
          position: line.position,
          assigned_at: toTimestamp(now),
        })),
      )
      .execute();
  }
}

/** An order cancelled by the shop gives its numbers back: its pieces are on the shelf again. */
export async function releaseEditionNumbers(
  trx: Db,
  orderId: string,
  /** Only these products' numbers (the pieces that went back). */
  productIds?: readonly string[],
): Promise<void> {
  if (productIds?.length === 0) return;
  let release = trx.deleteFrom("edition_numbers").where("order_id", "=", orderId);
  if (productIds) release = release.where("product_id", "in", [...productIds]);
  await release.execute();
}

/**
 * Some pieces of one order line back on the shelf (a return restocked): their numbers go with them
 * to the next buyer — those the owner said came back (`chosen`: the certificates that came with
 * them), else the highest of the line's, `count` of them (all of them, when the whole line came back).
 */
export async function releaseLineEditionNumbers(
  trx: Db,
  orderId: string,
  position: number,
  count: number,
  chosen?: readonly number[],
): Promise<void> {
  let held = trx
    .selectFrom("edition_numbers")
    .select("number")
    .where("order_id", "=", orderId)
    .where("position", "=", position);
  if (chosen)
    held = chosen.length > 0 ? held.where("number", "in", [...chosen]) : held.where(sql<boolean>`1 = 0`);
  const numbers = await held.orderBy("number", "desc").limit(count).execute();
  if (numbers.length === 0) return;
  await trx
    .deleteFrom("edition_numbers")
    .where("order_id", "=", orderId)
    .where("position", "=", position)
    .where(
      "number",
      "in",
      numbers.map((n) => n.number),
    )
    .execute();
}

/** Each numbered line's text ('Pieza 7 de 30') of these orders, keyed `orderId:position`. */
export async function editionTexts(db: Db, orderIds: readonly string[]): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  if (orderIds.length === 0) return texts;
  const rows = await db
    .selectFrom("edition_numbers as e")
    .leftJoin("products as p", "p.id", "e.product_id")
    .select(["e.order_id", "e.position", "e.number", "p.edition_size"])
    .where("e.order_id", "in", orderIds)
    .orderBy("e.order_id")
    .orderBy("e.position")
    .orderBy("e.number")
    .execute();
  const grouped = new Map<string, { numbers: number[]; size: number | null }>();
  for (const row of rows) {
    const key = `${row.order_id}:${row.position}`;
    const entry = grouped.get(key) ?? { numbers: [], size: row.edition_size };
    entry.numbers.push(row.number);
    grouped.set(key, entry);
  }
  // A product deleted since keeps its numbers; its size is then the highest the order shows.
  for (const [key, { numbers, size }] of grouped) {
    texts.set(key, editionText(numbers, size ?? Math.max(...numbers)));
  }
  return texts;
}

/** One numbered piece of an order, as its certificate of authenticity says it. */
export interface EditionCertificate {
  name: string;
  number: number;
  size: number;
  metal: MetalFacts;
}

/**
 * A certificate per numbered piece of the order, in the order's lines and then number order. The
 * piece's name is the order's own copy; its metal facts and edition size, the product's.
 */
export async function editionCertificates(db: Db, orderId: string): Promise<EditionCertificate[]> {
  const rows = await db
    .selectFrom("edition_numbers as e")
    .innerJoin("order_lines as l", (join) =>
      join.onRef("l.order_id", "=", "e.order_id").onRef("l.position", "=", "e.position"),
    )
    .leftJoin("products as p", "p.id", "e.product_id")
    .select(["l.name", "e.number", "p.edition_size", "p.karat", "p.weight_mg", "p.stones"])
    .where("e.order_id", "=", orderId)
    .orderBy("e.position")
    .orderBy("e.number")
    .execute();
  return rows.map((r) => ({
    name: r.name,
    number: r.number,
    size: r.edition_size ?? r.number,
    metal: metalFactsOf(r),
  }));
}

/** The edition numbers each line of these orders holds now, keyed `orderId:position`, lowest first. */
export async function lineNumbers(db: Db, orderIds: readonly string[]): Promise<Map<string, number[]>> {
  const held = new Map<string, number[]>();
  if (orderIds.length === 0) return held;
  const rows = await db
    .selectFrom("edition_numbers")
    .select(["order_id", "position", "number"])
    .where("order_id", "in", [...new Set(orderIds)])
    .orderBy("number")
    .execute();
  for (const row of rows) {
    const key = `${row.order_id}:${row.position}`;
    held.set(key, [...(held.get(key) ?? []), row.number]);
  }
  return held;
}
