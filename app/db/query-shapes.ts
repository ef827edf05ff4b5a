import type { CompiledQuery, Kysely } from "kysely";

/*
 * Kysely builds every query as a tree of frozen nodes and compiles it to SQL on each run: for the
 * small queries of a page that costs nothing worth naming, but a 64-row insert on drop day, built
 * and compiled a few times a second per process, spent more CPU than SQLite spent writing it. A
 * query shape is built and compiled once, with a stand-in for each value (`slot`), and each run
 * only fills the values in (as a prepared statement would); the SQL text stays the same, so SQLite
 * keeps it prepared too (db/statement-cache.ts).
 */

const SLOT = "\u0000valor:";

/** A stand-in for the value `name` of row `row` (0 for a one-row query), filled in at each run. */
export function slot(row: number, name: string): string {
  return `${SLOT}${row}:${name}`;
}

export interface QueryShape {
  /** Its SQL text, the same at every run (what SQLite keeps prepared). */
  readonly sql: string;
  /** The compiled query with these rows' values in place of the stand-ins. */
  fill(rows: readonly Record<string, unknown>[]): CompiledQuery;
}

/** A compiled query (built with `slot`s in place of the values that change), filled in at each run. */
export function queryShape(compiled: CompiledQuery): QueryShape {
  const slots = compiled.parameters.map((value): { row: number; name: string } | { value: unknown } => {
    if (typeof value !== "string" || !value.startsWith(SLOT)) return { value };
    const at = value.indexOf(":", SLOT.length);
    return { row: Number(value.slice(SLOT.length, at)), name: value.slice(at + 1) };
  });
  return {
    sql: compiled.sql,
    fill(rows) {
      const parameters = slots.map((s) => ("name" in s ? rows[s.row]?.[s.name] : s.value));
      return { ...compiled, parameters };
    },
  };
}

/**
 * Shapes kept per kind of database and key (e.g. a statement and its number of rows). A shape
 * compiled on a handle serves its transactions too: they share its dialect (its adapter).
 */
export function shapeCache(): (
  // biome-ignore lint/suspicious/noExplicitAny: any schema; only the dialect matters here
  db: Kysely<any>,
  key: string,
  compile: () => CompiledQuery,
) => QueryShape {
  const byDialect = new WeakMap<object, Map<string, QueryShape>>();
  return (db, key, compile) => {
    const dialect = db.getExecutor().adapter;
    let shapes = byDialect.get(dialect);
    if (!shapes) {
      shapes = new Map();
      byDialect.set(dialect, shapes);
    }
    let shape = shapes.get(key);
    if (!shape) {
      shape = queryShape(compile());
      shapes.set(key, shape);
    }
    return shape;
  };
}

/** The most rows of one statement of a batch: a batch of the draw's places is at most this many. */
export const MOST_ROWS = 256;

/**
 * `items` in runs whose lengths are powers of two (largest first, at most MOST_ROWS): whatever a
 * batch's size, its statements take one of nine shapes, which SQLite keeps prepared, and a full
 * batch is one statement (one round trip to PostgreSQL).
 */
export function powerOfTwoRuns<T>(items: readonly T[]): T[][] {
  const runs: T[][] = [];
  let at = 0;
  while (at < items.length) {
    let size = MOST_ROWS;
    while (size > items.length - at) size /= 2;
    runs.push(items.slice(at, at + size));
    at += size;
  }
  return runs;
}
