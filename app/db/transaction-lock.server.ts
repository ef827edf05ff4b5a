import { PostgresAdapter, sql } from "kysely";
import type { Db } from "./database.server";

/**
 * Makes transactions that read rows and then write from what they read (the next edition number, a
 * person's count in a drop, an e-mail cap, who is told a piece came back) take turns per `key`:
 * on PostgreSQL a lock of the transaction's own (`pg_advisory_xact_lock`, released at its commit
 * or rollback); on SQLite nothing more, as every transaction of the shop already holds the write
 * lock from its start (BEGIN IMMEDIATE). Several keys are to be taken in one order everywhere, so
 * that two transactions never wait on each other. Outside a transaction PostgreSQL would release
 * the lock with its own statement, so no turn would be taken: that is refused as a mistake.
 */
export async function takeTurnsOn(trx: Db, key: string): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    if (!trx.isTransaction) throw new Error(`takeTurnsOn(${key}) outside a transaction takes no turn`);
    await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
  }
}

/**
 * Claims products' rows for the rest of the transaction, in id order (the order every transaction
 * of the shop takes them in), without writing them: on PostgreSQL a `SELECT … FOR UPDATE`, after
 * which a transaction that was changing them has committed and its changes are read; on SQLite
 * nothing more, as above (the write lock is already held).
 */
export async function claimProducts(trx: Db, productIds: readonly string[]): Promise<void> {
  if (productIds.length === 0 || !(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await trx
    .selectFrom("products")
    .select("id")
    .where("id", "in", [...productIds])
    .orderBy("id")
    .forUpdate()
    .execute();
}
