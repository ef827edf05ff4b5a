import type { Kysely } from "kysely";
import { timestampType } from "./column-types";

/*
 * OXXO and SPEI (issue 26, decision 42). An order paid in cash at a store or by bank transfer waits
 * days for its money: it records how it is being paid and the voucher the buyer pays with (its
 * reference, the bank account for a transfer, the provider's printable page, and when it stops
 * being payable). Every order before this one was paid by card (the only method offered): null.
 *
 * A drop is 'solo tarjeta' for its first hours (2 by default, existing drops too): no voucher can
 * lock a hyped piece for days on drop day.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("payment_method", "text").execute();
  await db.schema.alterTable("orders").addColumn("voucher_reference", "text").execute();
  await db.schema.alterTable("orders").addColumn("voucher_clabe", "text").execute();
  await db.schema.alterTable("orders").addColumn("voucher_url", "text").execute();
  await db.schema.alterTable("orders").addColumn("voucher_expires_at", timestampType(db)).execute();
  await db.schema
    .alterTable("drops")
    .addColumn("card_only_hours", "integer", (c) => c.notNull().defaultTo(2))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("drops").dropColumn("card_only_hours").execute();
  for (const column of [
    "voucher_expires_at",
    "voucher_url",
    "voucher_clabe",
    "voucher_reference",
    "payment_method",
  ])
    await db.schema.alterTable("orders").dropColumn(column).execute();
}
