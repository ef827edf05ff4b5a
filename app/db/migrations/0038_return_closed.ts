import { type Kysely, sql } from "kysely";
import { inTransaction, isPostgres } from "./column-types";

/*
 * A return the owner closes without a refund once she had accepted it (the buyer kept the pieces,
 * or never sent them): a status of its own, 'cerrada' (decision 48). Only the status column's
 * check changes. PostgreSQL swaps the check; SQLite cannot alter one, so the table is made again
 * from its own definition (the check widened), its rows and indexes copied, with foreign keys off
 * meanwhile so the return lines that point at it are neither deleted nor left pointing nowhere.
 */

const OLD = "status in ('solicitada', 'aceptada', 'rechazada', 'recibida', 'reembolsada')";
const NEW = "status in ('solicitada', 'aceptada', 'rechazada', 'recibida', 'reembolsada', 'cerrada')";

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not follow today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  await widen(db, OLD, NEW);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  // A closed return was settled without a refund, as a declined one.
  await db.updateTable("returns").set({ status: "rechazada" }).where("status", "=", "cerrada").execute();
  await widen(db, NEW, OLD);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
async function widen(db: Kysely<any>, from: string, to: string): Promise<void> {
  if (isPostgres(db)) {
    const found = await sql<{ conname: string }>`
      SELECT conname FROM pg_constraint
      WHERE conrelid = 'returns'::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%solicitada%'`.execute(
      db,
    );
    for (const { conname } of found.rows)
      await sql`ALTER TABLE returns DROP CONSTRAINT ${sql.id(conname)}`.execute(db);
    await sql`ALTER TABLE returns ADD CONSTRAINT returns_status_check CHECK (${sql.raw(to)})`.execute(db);
    return;
  }
  const table = await sql<{
    sql: string;
  }>`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'returns'`.execute(db);
  const definition = table.rows[0]?.sql ?? "";
  // Already made: a run stopped after its transaction and before Kysely recorded it (SQLite runs a
  // migration outside a transaction), so the next start finds it done.
  if (definition.includes(to)) return;
  if (!definition.includes(from)) throw new Error("returns: the status check is not the expected one");
  const indexes = await sql<{ sql: string }>`
    SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'returns' AND sql IS NOT NULL`.execute(
    db,
  );
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await inTransaction(db, async (trx) => {
      await sql
        .raw(
          definition.replace(from, to).replace(/^CREATE TABLE\s+"?returns"?/i, 'CREATE TABLE "returns_new"'),
        )
        .execute(trx);
      await sql`INSERT INTO returns_new SELECT * FROM returns`.execute(trx);
      await sql`DROP TABLE returns`.execute(trx);
      await sql`ALTER TABLE returns_new RENAME TO returns`.execute(trx);
      for (const { sql: index } of indexes.rows) await sql.raw(index).execute(trx);
      // The two tables this touches (another table's old stray row is not this migration's to judge).
      const broken = [
        ...(await sql`PRAGMA foreign_key_check(returns)`.execute(trx)).rows,
        ...(await sql`PRAGMA foreign_key_check(return_lines)`.execute(trx)).rows,
      ];
      if (broken.length > 0) throw new Error("returns: a row lost what it points at");
    });
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}
