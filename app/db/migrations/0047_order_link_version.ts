import type { Kysely } from "kysely";
import { hasColumn } from "./column-types";

/*
 * The generation of an order's 'Mi pedido' link (decision 37, 'Mi pedido' links that can be
 * renewed): its signature covers this number once it is above 0, so raising it (the buyer's e-mail
 * corrected, or 'Renovar enlace de «Mi pedido»') stops every link signed before. Every existing
 * order starts at 0, whose signature is the order id's alone: the links already e-mailed keep
 * working until their order's number is raised.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  if (!(await hasColumn(db, "orders", "link_version")))
    await db.schema
      .alterTable("orders")
      .addColumn("link_version", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("link_version").execute();
}
