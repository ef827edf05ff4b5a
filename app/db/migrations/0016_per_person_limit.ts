import { type Kysely, sql } from "kysely";
import { inTransaction, isPostgres, timestampType } from "./column-types";

const BEFORE = "'esperando_pago', 'pendiente', 'enviado', 'archivado', 'expirado'";
const AFTER = "'esperando_pago', 'pendiente', 'enviado', 'archivado', 'expirado', 'cancelado'";

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  // The per-person limit at payment (decision 29). An order over 'Máximo N por persona' is
  // `cancelado`: refunded, its pieces back in stock.
  await setStatusCheck(db, BEFORE, AFTER);
  // Who paid, as the three keys the limit compares: the e-mail folded, the card's fingerprint
  // (the provider's), the shipping address folded (line 1, postal code, country). And the
  // provider's payment (Stripe: the PaymentIntent), which a refund names.
  for (const column of ["email_key", "card_fingerprint", "address_key", "payment_id"]) {
    await db.schema.alterTable("orders").addColumn(column, "text").execute();
  }
  // Orders paid before today: their e-mail is their key (the address needs the app's folding).
  await sql`update orders set email_key = lower(trim(customer_email)) where paid_at is not null and customer_email <> ''`.execute(
    db,
  );
  for (const column of ["email_key", "card_fingerprint", "address_key"]) {
    await db.schema.createIndex(`orders_by_${column}`).on("orders").columns([column, "status"]).execute();
  }

  // One refund per order: asked of the provider until it answers, then kept as the record.
  await db.schema
    .createTable("refunds")
    .addColumn("order_id", "text", (c) => c.primaryKey().references("orders.id").onDelete("cascade"))
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents >= 0`))
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    // Why, in the owner's words (shown on the desk and in the buyer's e-mail).
    .addColumn("reason", "text", (c) => c.notNull())
    // pendiente: to ask the provider (again); hecho: the provider made it.
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pendiente', 'hecho')`))
    .addColumn("provider_refund_id", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addColumn("next_attempt_at", ts)
    .addColumn("created_at", ts, (c) => c.notNull())
    .addColumn("refunded_at", ts)
    .execute();
  await db.schema
    .createIndex("refunds_due_idx")
    .on("refunds")
    .columns(["status", "next_attempt_at"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("refunds_due_idx").execute();
  await db.schema.dropTable("refunds").execute();
  for (const column of ["address_key", "card_fingerprint", "email_key"]) {
    await db.schema.dropIndex(`orders_by_${column}`).execute();
  }
  for (const column of ["payment_id", "address_key", "card_fingerprint", "email_key"]) {
    await db.schema.alterTable("orders").dropColumn(column).execute();
  }
  // A cancelled order was never kept and its pieces went back: the old statuses call that expirado.
  await sql`update orders set status = 'expirado' where status = 'cancelado'`.execute(db);
  await setStatusCheck(db, AFTER, BEFORE);
}

/**
 * Changes the statuses orders.status accepts. PostgreSQL replaces the constraint; SQLite cannot
 * alter one, so the table is rebuilt as its documentation says (foreign keys off meanwhile, the
 * same definition with the new list, rows copied, indexes made again).
 */
// biome-ignore lint/suspicious/noExplicitAny: see up()
async function setStatusCheck(db: Kysely<any>, from: string, to: string): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table orders drop constraint orders_status_check`.execute(db);
    await sql`alter table orders add constraint orders_status_check check (status in (${sql.raw(to)}))`.execute(
      db,
    );
    return;
  }
  const { rows } = await sql<{ type: string; sql: string }>`
    select type, sql from sqlite_master where tbl_name = 'orders' and sql is not null`.execute(db);
  const table = rows.find((r) => r.type === "table")?.sql ?? "";
  const rebuilt = table.replace(`status in (${from})`, `status in (${to})`);
  if (rebuilt === table) throw new Error("orders: no se encontró la lista de estatus que cambiar");
  const indexes = rows.filter((r) => r.type === "index").map((r) => r.sql);
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await inTransaction(db, async (trx) => {
      await sql
        .raw(rebuilt.replace(/^create table "?orders"?/i, 'create table "orders_rebuilt"'))
        .execute(trx);
      await sql`insert into orders_rebuilt select * from orders`.execute(trx);
      await sql`drop table orders`.execute(trx);
      await sql`alter table orders_rebuilt rename to orders`.execute(trx);
      for (const index of indexes) await sql.raw(index).execute(trx);
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error("orders: claves foráneas rotas al reconstruir la tabla");
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
