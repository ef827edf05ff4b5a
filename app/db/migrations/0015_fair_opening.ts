import { type Kysely, sql } from "kysely";
import { timestampType } from "./column-types";

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  // A fair opening (decision 27): the owner's rules for a drop's first moments.
  // `lottery_seconds`: checkouts asked for from a little before the opening until this many
  // seconds after it are put in a random order. `opening_minutes`: how long the opening's rules
  // last (short holds, few holds per address). `opening_hold_minutes`: a checkout's hold then.
  // `opening_holds_per_address`: pieces one address (IPv4, or IPv6 /64) may hold or buy then.
  await db.schema
    .alterTable("drops")
    .addColumn("lottery_seconds", "integer", (c) => c.notNull().defaultTo(10))
    .execute();
  await db.schema
    .alterTable("drops")
    .addColumn("opening_minutes", "integer", (c) => c.notNull().defaultTo(60))
    .execute();
  await db.schema
    .alterTable("drops")
    .addColumn("opening_hold_minutes", "integer", (c) => c.notNull().defaultTo(10))
    .execute();
  await db.schema
    .alterTable("drops")
    .addColumn("opening_holds_per_address", "integer", (c) => c.notNull().defaultTo(2))
    .execute();
  // Who dispatches the drop's line right now (one app process at a time), until when.
  await db.schema.alterTable("drops").addColumn("line_lease_until", ts).execute();

  // The checkout's address bucket (IPv4 address or IPv6 /64), and its payment page's address, so
  // a browser that asks again for pieces it holds is sent back to the same page, not given a new hold.
  await db.schema.alterTable("orders").addColumn("address_bucket", "text").execute();
  await db.schema.alterTable("orders").addColumn("payment_url", "text").execute();

  // The line: checkouts waiting their turn for a drop's pieces.
  await db.schema
    .createTable("drop_line")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("drop_id", "text", (c) => c.notNull())
    .addColumn("browser", "text", (c) => c.notNull())
    .addColumn("address_bucket", "text", (c) => c.notNull())
    // The cart asked for: JSON [{ productId, dropId, quantity }].
    .addColumn("cart", "text", (c) => c.notNull())
    // The shop's origin the request came from (the payment page's return addresses).
    .addColumn("origin", "text", (c) => c.notNull())
    // The place in line: digits only, compared as text (see orders/line-order.ts).
    .addColumn("place", "text", (c) => c.notNull())
    // esperando | atendido | agotado | retirado
    .addColumn("status", "text", (c) => c.notNull())
    // While waiting: whether the pieces wanted are all held by others for now ('apartadas').
    .addColumn("note", "text")
    .addColumn("order_id", "text")
    .addColumn("payment_url", "text")
    .addColumn("message", "text")
    .addColumn("joined_at", ts, (c) => c.notNull())
    .addColumn("seen_at", ts, (c) => c.notNull())
    .addColumn("updated_at", ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("drop_line_by_place")
    .on("drop_line")
    .columns(["drop_id", "status", "place"])
    .execute();
  // The places of one address bucket (the opening's pieces per address), read for every place taken.
  await db.schema
    .createIndex("drop_line_by_bucket")
    .on("drop_line")
    .columns(["drop_id", "address_bucket", "status"])
    .execute();
  // One place in a drop's line per browser.
  await sql`CREATE UNIQUE INDEX drop_line_one_per_browser ON drop_line (drop_id, browser) WHERE status = 'esperando'`.execute(
    db,
  );
  await db.schema
    .createIndex("orders_by_address_bucket")
    .on("orders")
    .columns(["address_bucket", "status"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("orders_by_address_bucket").execute();
  await db.schema.dropIndex("drop_line_by_bucket").execute();
  await db.schema.dropTable("drop_line").execute();
  for (const column of ["payment_url", "address_bucket"]) {
    await db.schema.alterTable("orders").dropColumn(column).execute();
  }
  for (const column of [
    "line_lease_until",
    "opening_holds_per_address",
    "opening_hold_minutes",
    "opening_minutes",
    "lottery_seconds",
  ]) {
    await db.schema.alterTable("drops").dropColumn(column).execute();
  }
}
