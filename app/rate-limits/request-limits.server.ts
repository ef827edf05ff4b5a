import SQLite from "better-sqlite3";
import { sql } from "kysely";
import pg from "pg";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  RateLimiterSQLite,
} from "rate-limiter-flexible";
import type { DatabaseTarget } from "~/config/env.server";
import { log } from "~/config/log.server";
import { type Db, fillPool } from "~/db/database.server";
import { MOST_ROWS, powerOfTwoRuns, type QueryShape, shapeCache, slot } from "~/db/query-shapes";
import { withStatementCache } from "~/db/statement-cache";

/**
 * Request limits on drop day: how often one browser, and one address, may start a checkout,
 * leave the payment page, try to sign in or sign up for a drop's 'Avísame'. Counted by rate-limiter-flexible in the shop's own
 * database (table `rate_limits`), so a limit holds across app servers and processes.
 *
 * Browser first, address second: Mexican mobile carriers put hundreds of people behind one
 * address, so per-address ceilings are high (a crowd can still buy) and per-browser ones tight.
 * A request without the browser cookie (a script, or a first visit) counts against a smaller
 * per-address allowance of its own, so dropping the cookie does not buy more attempts.
 */
export type LimitedAction = "checkout" | "cancel" | "login" | "challenge" | "waitlist" | "lookup";

interface Rule {
  /** How many per window. */
  points: number;
  windowSeconds: number;
}

export const LIMIT_RULES: Record<LimitedAction, { browser: Rule; cookieless: Rule; address: Rule }> = {
  // 200 checkouts from one browser in a minute is a script; a person starts a handful.
  checkout: {
    browser: { points: 10, windowSeconds: 60 },
    cookieless: { points: 20, windowSeconds: 60 },
    address: { points: 600, windowSeconds: 60 },
  },
  cancel: {
    browser: { points: 30, windowSeconds: 60 },
    cookieless: { points: 60, windowSeconds: 60 },
    address: { points: 1200, windowSeconds: 60 },
  },
  // A proof-of-work challenge (GET /api/reto) costs the server one key derivation. A browser asks
  // for one when its cart gets a piece, often before it has the cookie: requests without one share
  // the address's ceiling, which a crowd behind one carrier stays well under.
  challenge: {
    browser: { points: 30, windowSeconds: 60 },
    cookieless: { points: 3000, windowSeconds: 60 },
    address: { points: 3000, windowSeconds: 60 },
  },
  // 'Avísame' sign-ups: each may send a confirmation e-mail, so a script must not turn the shop
  // into a mailer. A person signs up for a drop once or twice; a crowd behind one carrier's
  // address, most on their first visit (no cookie yet), still fits under the address's ceilings.
  waitlist: {
    browser: { points: 5, windowSeconds: 600 },
    cookieless: { points: 300, windowSeconds: 600 },
    address: { points: 600, windowSeconds: 600 },
  },
  // 'Mi pedido' looked up by number and e-mail: a person types them a few times; guessing other
  // people's orders takes thousands of tries.
  lookup: {
    browser: { points: 10, windowSeconds: 600 },
    cookieless: { points: 30, windowSeconds: 600 },
    address: { points: 300, windowSeconds: 600 },
  },
  // On top of the sign-in's own failure limits (app/auth/login-limits.server.ts): this one counts
  // every attempt, so a flood is turned away before it reaches the password line.
  login: {
    browser: { points: 20, windowSeconds: 600 },
    cookieless: { points: 40, windowSeconds: 600 },
    address: { points: 200, windowSeconds: 600 },
  },
};

export type LimitDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface RequestLimits {
  /** Counts one request of `action` for this browser (null: no cookie) and address. */
  consume(action: LimitedAction, who: { browser: string | null; address: string }): Promise<LimitDecision>;
  /** True the first time `key` is seen within `seconds`, on any app server (single-use tokens). */
  once(key: string, seconds: number): Promise<boolean>;
  /**
   * `once` for many keys, written through `db`: the shop's own database (where the limits are
   * kept), in a transaction the caller writes more in. On drop day the proofs spent within one turn
   * of the event loop are written together with the places they pay for (orders/line-draw), one
   * statement and one commit for them all. True for each key seen for the first time; a key
   * twice in the list is spent by its first.
   */
  onceWithin(db: Db, keys: readonly SingleUse[]): Promise<boolean[]>;
  close(): Promise<void>;
}

/** A single-use key, and how long it is remembered. */
export interface SingleUse {
  key: string;
  seconds: number;
}

const TABLE = "rate_limits";
/** PostgreSQL connections of each app process for the counts. */
const LIMITS_POOL_SIZE = 4;

/** Limits stored in the shop's database: SQLite through its own connection, PostgreSQL through a small pool. */
export function createRequestLimits(target: DatabaseTarget | "memory"): RequestLimits {
  let close = async () => {};
  let store: (keyPrefix: string, rule: Rule) => RateLimiterAbstract;
  if (target === "memory") {
    store = (keyPrefix, rule) =>
      new RateLimiterMemory({ keyPrefix, points: rule.points, duration: rule.windowSeconds });
  } else if (target.kind === "sqlite") {
    // A connection of its own: the shop's connection runs Kysely's transactions, and a limit
    // written on it between two of their statements would join (and roll back with) them.
    const handle = new SQLite(target.file);
    handle.pragma("journal_mode = WAL");
    // Counts need no fsync per request: after a power cut, a minute's counts lost is harmless,
    // and on drop day every checkout writes two of them.
    handle.pragma("synchronous = NORMAL");
    handle.pragma("busy_timeout = 5000");
    close = async () => {
      handle.close();
    };
    // Two upserts per checkout on drop day: their statements stay prepared.
    const cached = withStatementCache(handle);
    store = (keyPrefix, rule) =>
      new RateLimiterSQLite({
        storeClient: cached,
        storeType: "better-sqlite3",
        tableName: TABLE,
        tableCreated: true,
        keyPrefix,
        points: rule.points,
        duration: rule.windowSeconds,
      });
  } else {
    // Two counts per checkout, hundreds of checkouts a second on drop day, each a one-statement
    // upsert: a few connections, opened now and kept (as the shop's own pool). The counts are not
    // worth a disk flush each: committed without waiting for the write-ahead log to reach the disk
    // (a crash of the database may forget the last fraction of a second's counts, never corrupt
    // them), as the SQLite store's `synchronous = NORMAL`.
    const pool = new pg.Pool({
      connectionString: target.url,
      max: LIMITS_POOL_SIZE,
      min: LIMITS_POOL_SIZE,
      connectionTimeoutMillis: 5000,
      options: "-c synchronous_commit=off",
    });
    pool.on("error", () => {});
    void fillPool(pool, LIMITS_POOL_SIZE);
    close = () => pool.end();
    store = (keyPrefix, rule) =>
      new RateLimiterPostgres({
        storeClient: pool,
        storeType: "pool",
        tableName: TABLE,
        tableCreated: true,
        keyPrefix,
        points: rule.points,
        duration: rule.windowSeconds,
      });
  }

  const inDatabase = target !== "memory";
  const limiters = new Map<string, RateLimiterAbstract>();
  const limiter = (action: LimitedAction, kind: "browser" | "cookieless" | "address") => {
    const name = `${action}_${kind}`;
    let found = limiters.get(name);
    if (!found) {
      found = store(name, LIMIT_RULES[action][kind]);
      limiters.set(name, found);
    }
    return found;
  };

  return {
    async consume(action, who) {
      const first = who.browser
        ? limiter(action, "browser").consume(who.browser)
        : limiter(action, "cookieless").consume(who.address);
      try {
        await Promise.all([first, limiter(action, "address").consume(who.address)]);
        return { ok: true };
      } catch (refusal) {
        // The library rejects with a RateLimiterRes when a limit is reached, with an Error when
        // its store fails: a store that cannot be reached must not turn shoppers away.
        if (refusal instanceof RateLimiterRes) {
          return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
        }
        log.error(
          { error: String((refusal as Error)?.message ?? refusal) },
          "Límites de solicitudes: no se pudo contar",
        );
        return { ok: true };
      }
    },
    async once(key, seconds) {
      const name = `once_${seconds}`;
      let single = limiters.get(name);
      if (!single) {
        single = store(name, { points: 1, windowSeconds: seconds });
        limiters.set(name, single);
      }
      try {
        await single.consume(key);
        return true;
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return false;
        throw refusal;
      }
    },
    async onceWithin(db, keys) {
      if (inDatabase) return spendWithin(db, keys);
      const fresh: boolean[] = [];
      for (const { key, seconds } of keys) fresh.push(await this.once(key, seconds));
      return fresh;
    },
    close,
  };
}

/**
 * The rows `once` makes, through rate-limiter-flexible's stores (a limiter `once_<seconds>` of one
 * point: row `once_<seconds>:<key>`), written for many keys in one upsert with the same rule as
 * theirs (a row whose time is up counts from one again; more than one point is a key seen before).
 * In the keys' order, so that two app processes' batches lock any row both write in the same order;
 * in runs of a few sizes, whose statements SQLite keeps prepared.
 */
async function spendWithin(db: Db, keys: readonly SingleUse[]): Promise<boolean[]> {
  const rowKeys = keys.map(({ key, seconds }) => `once_${seconds}:${key}`);
  const firstOf = new Map<string, number>();
  rowKeys.forEach((key, i) => {
    if (!firstOf.has(key)) firstOf.set(key, i);
  });
  const distinct = [...firstOf.keys()].sort();
  const fresh = new Set<string>();
  const now = Date.now();
  for (const run of powerOfTwoRuns(distinct)) {
    const shape = onceShape(db, run.length);
    const written = await db.executeQuery<{ key: string; points: number | string }>(
      shape.fill(
        run.map((key) => ({
          key,
          expire: now + (keys[firstOf.get(key) as number] as SingleUse).seconds * 1000,
          now,
        })),
      ),
    );
    for (const row of written.rows) if (Number(row.points) <= 1) fresh.add(row.key);
  }
  return rowKeys.map((key, i) => firstOf.get(key) === i && fresh.has(key));
}

/** The upserts of `spendWithin`, compiled once per number of rows (db/query-shapes.ts). */
const onceShapes = shapeCache();

/** The upsert of `rows` single-use keys. */
const onceShape = (db: Db, rows: number) =>
  onceShapes(db, `una vez ${rows}`, () =>
    sql`INSERT INTO rate_limits (key, points, expire)
      VALUES ${sql.join(Array.from({ length: rows }, (_, r) => sql`(${slot(r, "key")}, 1, ${slot(r, "expire")})`))}
      ON CONFLICT (key) DO UPDATE SET
        points = CASE WHEN rate_limits.expire <= ${slot(0, "now")} THEN excluded.points ELSE rate_limits.points + excluded.points END,
        expire = CASE WHEN rate_limits.expire <= ${slot(0, "now")} THEN excluded.expire ELSE rate_limits.expire END
      RETURNING key, points`.compile(db),
  );

/** Compiles every shape of `onceWithin`'s upsert now, before the rush that first needs the big ones. */
export function compileOnceShapes(db: Db): QueryShape[] {
  const compiled: QueryShape[] = [];
  for (let rows = 1; rows <= MOST_ROWS; rows *= 2) compiled.push(onceShape(db, rows));
  return compiled;
}

/** REQUEST_LIMITS=false: every request passes (tests that are not about limits). */
export const noRequestLimits: RequestLimits = {
  consume: async () => ({ ok: true }),
  once: async () => true,
  onceWithin: async (_db, keys) => keys.map(() => true),
  close: async () => {},
};

/** What a refused request is told, in the shopper's words. */
export function limitMessage(retryAfterSeconds: number): string {
  const wait =
    retryAfterSeconds < 60
      ? `${retryAfterSeconds} ${retryAfterSeconds === 1 ? "segundo" : "segundos"}`
      : `${Math.ceil(retryAfterSeconds / 60)} ${Math.ceil(retryAfterSeconds / 60) === 1 ? "minuto" : "minutos"}`;
  return `Demasiados intentos seguidos. Intenta de nuevo en ${wait}.`;
}
