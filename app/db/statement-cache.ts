import type SQLite from "better-sqlite3";

/** Statements kept prepared at once; queries differ mostly by the length of an `in (…)` list. */
const STATEMENT_CACHE_SIZE = 300;

/**
 * Kysely (and the request limits' store) prepare every query they run; preparing costs more than
 * running the small queries of a checkout. The same SQL text reuses its prepared statement (SQLite re-prepares one by itself
 * when a migration changes the schema). Nothing here iterates a statement across awaits (no
 * `.stream()`), which is what would make a shared statement busy.
 */
export function withStatementCache(handle: Pick<SQLite.Database, "prepare" | "close" | "transaction">) {
  const statements = new Map<string, SQLite.Statement>();
  /** Statements prepared ahead for a moment that must not prepare them (`keep`): never evicted. */
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => handle.close(),
    // The request limits' store (rate-limiter-flexible) wraps its upserts in one.
    transaction: handle.transaction.bind(handle),
    /** Prepares `sqlText` now and keeps it for good (a few statements, named by the code). */
    keep(sqlText: string) {
      if (!kept.has(sqlText)) kept.set(sqlText, statements.get(sqlText) ?? handle.prepare(sqlText));
    },
    prepare(sqlText: string) {
      const held = kept.get(sqlText);
      if (held) return held;
      let statement = statements.get(sqlText);
      if (!statement) {
        statement = handle.prepare(sqlText);
        if (statements.size >= STATEMENT_CACHE_SIZE) {
          const oldest = statements.keys().next().value;
          if (oldest !== undefined) statements.delete(oldest);
        }
        statements.set(sqlText, statement);
      }
      return statement;
    },
  };
}
