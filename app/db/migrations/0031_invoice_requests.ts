import { type Kysely, sql } from "kysely";
import { timestampType } from "./column-types";

/*
 * 'Requiero factura' (issue 27, decision 45): a buyer's request for a CFDI 4.0 of her order, one per
 * order (a second one while the month lasts updates it): the receptor's data as the SAT has it,
 * where it stands and what the invoicing provider answered.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable("invoice_requests")
    .addColumn("order_id", "text", (c) => c.primaryKey().references("orders.id").onDelete("cascade"))
    .addColumn("rfc", "text", (c) => c.notNull().check(sql`length(rfc) between 12 and 13`))
    // The name or razón social as registered with the SAT (upper case, no type of society).
    .addColumn("name", "text", (c) => c.notNull().check(sql`length(name) between 1 and 254`))
    // The fiscal address's postal code (CFDI 4.0's DomicilioFiscalReceptor).
    .addColumn("postal_code", "text", (c) => c.notNull().check(sql`length(postal_code) = 5`))
    // c_RegimenFiscal and c_UsoCFDI codes.
    .addColumn("regimen", "text", (c) => c.notNull())
    .addColumn("uso", "text", (c) => c.notNull())
    // Where the factura is sent.
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("requested_at", ts, (c) => c.notNull())
    .addColumn("updated_at", ts, (c) => c.notNull())
    // recibida: recorded, to be stamped; timbrada: stamped by the provider; rechazada: the provider refused it.
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('recibida', 'timbrada', 'rechazada')`),
    )
    // Which invoicing adapter took it ('local': recorded for the accountant).
    .addColumn("provider", "text", (c) => c.notNull())
    // The provider's invoice (e.g. Facturapi's id) once stamped, and its notes or last error.
    .addColumn("provider_reference", "text")
    .addColumn("notes", "text")
    .execute();
  await db.schema
    .createIndex("invoice_requests_requested_idx")
    .on("invoice_requests")
    .column("requested_at")
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("invoice_requests").execute();
}
