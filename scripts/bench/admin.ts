// npm run bench:admin — the orders desk with a year of orders: 20,000 paid orders (about 2,000
// still to ship) and a few thousand unpaid ones, which the desk never lists. Times sequential
// requests from 127.0.0.1 to the real server, signed in as an administrator, for the first page of
// 'Pendiente', a name search in 'Enviado' and an order-number search, each as a full page and as
// the .data request React Router's client navigation makes; then the same desk queries in-process
// (database time). Target: p95 under 50 ms. On SQLite, and on PostgreSQL with TEST_DATABASE_URL
// (or BENCH_DATABASE_URL: a role that may create databases). Prints figures and exits 0 when a
// target is missed; exits 1 when something fails (a non-200 answer, a page without its orders).
// Settings: BENCH_REQUESTS (default 200 per address).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Insertable, sql } from "kysely";
import pg from "pg";
import { createAdminAuth, SESSION_COOKIE } from "~/auth/auth.server";
import { authSettings } from "~/auth/auth-config.server";
import { createDrop, getDrop } from "~/catalogue/catalogue.server";
import { loadConfig } from "~/config/env.server";
import { type Database, type Db, migrateToLatest, openDatabase, toTimestamp } from "~/db/database.server";
import type { OrderLinesTable, OrderStatus, OrdersTable } from "~/db/schema";
import { newId } from "~/lib/ids";
import { countPending, listOrders } from "~/orders/desk.server";
import { parseDeskQuery } from "~/orders/desk-query";
import { newOrderId } from "~/orders/ids";
import { foldForSearch, orderSearchKey } from "~/orders/search";
import { assertBuilt, baseEnv, type RunningServer, startServer } from "../../tests/support/server-process";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = 20;
const TARGET_MS = 50;
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

const PAID = 20_000;
const PENDING = 2_000;
const SHIPPED = 8_000; // the rest of the paid orders are archived
const EXPIRED = 2_800;
const WAITING = 200;
const DAY = 86_400_000;
/** The name search: one of the surnames below, typed without accents or capitals. */
const SURNAME_SEARCH = "nunez";

try {
  assertBuilt();
} catch {
  console.error("No build: run `npm run build` first (npm run bench:admin does).");
  process.exit(1);
}

const servers: RunningServer[] = [];
process.on("exit", () => {
  for (const s of servers) s.child.kill("SIGTERM");
});

/** A failure of the benchmark itself (as opposed to a missed target): exit 1. */
class BenchError extends Error {}

// A fixed seed: every run gets the same mix of names, dates and lines (order numbers stay random).
let seed = 20_240_917;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

// Comma-separated: some given names are two words.
const FIRST_NAMES = (
  "José, María, Sofía, Ángel, Andrés, Lucía, Valentina, Jesús, Ximena, Regina, Camila, Mónica, " +
  "Verónica, Raúl, Martín, Iñaki, Renata, Fernanda, Héctor, Inés, Julián, Begoña, Dafne, Itzel, Citlali, " +
  "Joaquín, Ramón, Elena, Guadalupe, Tomás, María José, Luis Ángel, Ana Sofía, Juan Pablo, Natalia, Rocío"
).split(", ");
const SURNAMES = (
  "Hernández, García, Martínez, López, González, Pérez, Rodríguez, Sánchez, Ramírez, Cruz, Flores, " +
  "Gómez, Morales, Vázquez, Jiménez, Reyes, Díaz, Gutiérrez, Ruiz, Núñez, Muñoz, Ordóñez, Peña, Chávez, " +
  "Domínguez, Álvarez, Ibáñez, Castañeda, Quiroga, Zúñiga, Téllez, Cortés, Mendoza, Orozco"
).split(", ");
const PLACES = [
  ["Oaxaca de Juárez", "Oaxaca", "68000"],
  ["Ciudad de México", "Ciudad de México", "06700"],
  ["Guadalajara", "Jalisco", "44160"],
  ["Monterrey", "Nuevo León", "64000"],
  ["Mérida", "Yucatán", "97000"],
  ["Querétaro", "Querétaro", "76000"],
  ["San Cristóbal de las Casas", "Chiapas", "29200"],
  ["Puebla", "Puebla", "72000"],
  ["León", "Guanajuato", "37000"],
  ["Morelia", "Michoacán", "58000"],
] as const;
const STREETS = [
  "Av. Juárez",
  "Calle Hidalgo",
  "Av. Reforma",
  "Calle Morelos",
  "Calle Allende",
  "Av. Insurgentes",
];
const CARRIERS = ["Estafeta", "DHL Express", "FedEx", "Redpack", "Paquetexpress", "99minutos"];

/** A name as it goes into an e-mail address: no accents, capitals or spaces. */
const emailPart = (text: string) => foldForSearch(text).replace(/ /g, "");

interface Product {
  id: string;
  dropId: string;
  name: string;
  priceCents: number;
}

/** A running drop with a few pieces, for the order lines to point at. */
async function catalogue(db: Db): Promise<Product[]> {
  const now = Date.now();
  const pieces = [
    { name: "Anillo Marea", categoria: "Anillo", material: "Oro rosa", priceCents: 450_000 },
    { name: "Arracadas Sol", categoria: "Arete", material: "Oro amarillo", priceCents: 320_000 },
    { name: "Collar Luna", categoria: "Collar", material: "Oro blanco", priceCents: 680_000 },
    { name: "Pulsera Trenza", categoria: "Pulsera", material: "Oro amarillo", priceCents: 290_000 },
    { name: "Anillo Coral", categoria: "Anillo", material: "Oro amarillo", priceCents: 380_000 },
    { name: "Broquel Perla", categoria: "Arete", material: "Oro rosa", priceCents: 150_000 },
  ] as const;
  const dropId = await createDrop(db, {
    name: "Mareas",
    status: "activa",
    startAt: new Date(now - DAY),
    endAt: new Date(now + 30 * DAY),
    products: pieces.map((p) => ({ ...p, stock: 1_000, imageId: null })),
  });
  const drop = await getDrop(db, dropId);
  return (drop?.products ?? []).map((p) => ({ id: p.id, dropId, name: p.name, priceCents: p.priceCents }));
}

interface Seeded {
  /** Paid orders by status, newest first, as the desk lists them. */
  byStatus: Record<"pendiente" | "enviado" | "archivado", string[]>;
}

/**
 * Writes the orders straight into the tables, in transactions of 500 orders with their lines: the
 * columns holdInTransaction and confirmPayment write, without going through a checkout each.
 */
async function seedOrders(db: Db, products: Product[]): Promise<Seeded> {
  const now = Date.now();
  const orders: {
    row: Insertable<OrdersTable> & { created_at: string };
    lines: Insertable<OrderLinesTable>[];
  }[] = [];

  // Paid orders over the last year; the newest still to ship, older ones shipped, the oldest archived.
  const paidTimes = Array.from({ length: PAID }, () => now - 30 * 60_000 - random() * 365 * DAY).sort(
    (a, b) => b - a,
  );
  const entries: { at: number; status: OrderStatus }[] = [
    ...paidTimes.map((at, i) => ({
      at,
      status: (i < PENDING ? "pendiente" : i < PENDING + SHIPPED ? "enviado" : "archivado") as OrderStatus,
    })),
    ...Array.from({ length: EXPIRED }, () => ({
      at: now - DAY - random() * 364 * DAY,
      status: "expirado" as const,
    })),
    // Still waiting: their holds end after the run, so the server's sweeper leaves them alone.
    ...Array.from({ length: WAITING }, () => ({
      at: now - random() * 10 * 60_000,
      status: "esperando_pago" as const,
    })),
  ];

  for (const { at, status } of entries) {
    const id = newOrderId();
    const created = new Date(at);
    const paid = status === "pendiente" || status === "enviado" || status === "archivado";
    const count = 1 + Math.floor(random() * 3);
    const chosen = shuffled(products).slice(0, count);
    const lines = chosen.map((p, position) => ({
      order_id: id,
      position,
      product_id: p.id,
      drop_id: p.dropId,
      name: p.name,
      unit_price_cents: p.priceCents,
      quantity: random() < 0.85 ? 1 : 2,
    }));
    const total = lines.reduce((sum, l) => sum + l.unit_price_cents * l.quantity, 0);
    const first = pick(FIRST_NAMES);
    const paternal = pick(SURNAMES);
    const maternal = pick(SURNAMES);
    const name = `${first} ${paternal} ${maternal}`;
    const [city, state, postalCode] = pick(PLACES);
    const paidAt = new Date(at + 5 * 60_000);
    const shippedAt = new Date(at + (1 + random() * 3) * DAY);
    const shipped = status === "enviado" || status === "archivado";
    const row = {
      id,
      status,
      total_cents: total,
      currency: "mxn",
      payment_provider: "demo",
      payment_session_id: `demo_${id}`,
      created_at: toTimestamp(created),
      expires_at: toTimestamp(
        status === "esperando_pago" ? new Date(now + 30 * 60_000) : new Date(at + 30 * 60_000),
      ),
      updated_at: toTimestamp(shipped ? shippedAt : paid ? paidAt : created),
      // What confirmPayment writes; an unpaid order has no customer yet.
      ...(paid
        ? {
            customer_name: name,
            customer_email: `${emailPart(first)}.${emailPart(paternal)}${Math.floor(random() * 100)}@correo.example`,
            search_text: orderSearchKey(id, name),
            paid_at: toTimestamp(paidAt),
            ship_name: name,
            ship_phone: `55 ${1000 + Math.floor(random() * 9000)} ${1000 + Math.floor(random() * 9000)}`,
            ship_line1: `${pick(STREETS)} ${1 + Math.floor(random() * 900)}`,
            ship_line2: "Centro",
            ship_city: city,
            ship_state: state,
            ship_postal_code: postalCode,
            ship_country: "MX",
          }
        : { customer_name: "", customer_email: "" }),
      ...(shipped
        ? {
            carrier: pick(CARRIERS),
            tracking_number: String(Math.floor(random() * 1e12)).padStart(12, "0"),
            shipped_at: toTimestamp(shippedAt),
          }
        : {}),
    };
    orders.push({ row, lines });
  }

  // One insert per table per batch; 500 orders stay under SQLite's and PostgreSQL's parameter limits.
  const BATCH = 500;
  for (let i = 0; i < orders.length; i += BATCH) {
    const batch = orders.slice(i, i + BATCH);
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("orders")
        .values(batch.map((o) => o.row))
        .execute();
      await trx
        .insertInto("order_lines")
        .values(batch.flatMap((o) => o.lines))
        .execute();
    });
  }

  const newestFirst = (status: OrderStatus) =>
    orders
      .filter((o) => o.row.status === status)
      .sort((a, b) =>
        a.row.created_at < b.row.created_at ? 1 : a.row.created_at > b.row.created_at ? -1 : 0,
      )
      .map((o) => o.row.id);
  return {
    byStatus: {
      pendiente: newestFirst("pendiente"),
      enviado: newestFirst("enviado"),
      archivado: newestFirst("archivado"),
    },
  };
}

/** An administrator signed in as the fixtures' AdminUtil does: the session cookie to send. */
async function adminCookie(database: Database, env: Record<string, string>): Promise<string> {
  // The server's own settings (same SESSION_SECRET and DATA_DIR), so it accepts the cookie.
  const auth = createAdminAuth(database, authSettings(loadConfig(baseEnv(env))));
  const email = `admin-${newId(8)}@example.com`;
  const password = `clave-de-prueba-${newId(12)}`;
  await auth.createAdmin({ email, name: "Administración", password });
  const result = await auth.signIn({
    email,
    password,
    address: "bench",
    headers: new Headers(),
    secure: false,
  });
  if (!result.ok) throw new BenchError(`could not sign ${email} in: ${result.reason}`);
  const cookie = result.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))?.split(";")[0];
  if (!cookie) throw new BenchError(`no ${SESSION_COOKIE} cookie in ${result.setCookies.join(" | ")}`);
  return cookie;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const ms = (n: number) => n.toFixed(1).padStart(6);

interface Case {
  label: string;
  search: string;
  /** The ids the first page must show, newest first. */
  expected: string[];
}

/** The ids a page shows, in order of first appearance (page and .data alike carry them). */
const idsIn = (body: string) => [...new Set(body.match(/OL-[A-Z0-9]{8}/g) ?? [])];

async function timeHttp(origin: string, cookie: string, pathname: string, expected: string[]) {
  const get = async () => {
    const res = await fetch(`${origin}${pathname}`, { headers: { cookie }, redirect: "manual" });
    const body = await res.text();
    if (res.status !== 200) throw new BenchError(`${pathname}: status ${res.status}\n${body.slice(0, 300)}`);
    return body;
  };
  // Sanity, once: exactly the orders of the first page, none missing, none extra (no unpaid one).
  const shown = idsIn(await get());
  const missing = expected.filter((id) => !shown.includes(id));
  const extra = shown.filter((id) => !expected.includes(id));
  if (expected.length === 0 || missing.length > 0 || extra.length > 0) {
    throw new BenchError(
      `${pathname}: expected ${expected.length} orders; missing ${missing.join(" ") || "none"}, unexpected ${extra.join(" ") || "none"}`,
    );
  }
  for (let i = 0; i < WARMUP; i++) await get();
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    await get();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b);
}

async function timeCalls(call: () => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    await call();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b);
}

/** Seeds one database, starts a server on it and prints the figures; false when a target is missed. */
async function bench(label: string, database: Database, env: Record<string, string>): Promise<boolean> {
  const t0 = performance.now();
  // One environment for the server and for the sign-in settings here: same secret, same data folder.
  env = { ...env, DEMO_DATA: "false", DEMO_PAYMENTS: "true", LOG_REQUESTS: "false" };
  const products = await catalogue(database.db);
  const seeded = await seedOrders(database.db, products);
  // PostgreSQL's autovacuum analyses a table this size within a minute or so; a live shop has
  // statistics, so the planner gets them here too. (Nothing runs ANALYZE on a SQLite shop.)
  if (database.dialect === "postgres") await sql`analyze`.execute(database.db);
  const cookie = await adminCookie(database, env);
  console.log(
    `\n${label}: ${PAID} paid orders (${PENDING} pending) and ${EXPIRED + WAITING} unpaid, seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const db = database.db;
  const pending = seeded.byStatus.pendiente;
  // Part of a pending order's number past the first page, as someone reading it out would type it.
  const wanted = pending[137] ?? "";
  const idFragment = wanted.slice(3, 9);
  const firstPage = (search: string) => listOrders(db, parseDeskQuery(new URLSearchParams(search)).query);
  const nameSearch = `?estado=enviado&q=${SURNAME_SEARCH}`;
  const named = await firstPage(nameSearch);
  const numbered = await firstPage(`?q=${idFragment}`);
  // The searches must find what was seeded: the surname in 'Enviado', the number among the pending.
  if (
    named.orders.length === 0 ||
    named.orders.some(
      (o) => o.status !== "enviado" || !foldForSearch(o.customerName).includes(SURNAME_SEARCH),
    ) ||
    !numbered.orders.some((o) => o.id === wanted)
  ) {
    throw new BenchError("the desk's searches did not find the seeded orders");
  }
  const cases: Case[] = [
    { label: "pending tab, page 1", search: "", expected: pending.slice(0, 20) },
    { label: `sent, name '${SURNAME_SEARCH}'`, search: nameSearch, expected: named.orders.map((o) => o.id) },
    {
      label: `order number '${idFragment}'`,
      search: `?q=${idFragment}`,
      expected: numbered.orders.map((o) => o.id),
    },
  ];
  const totals = await Promise.all(
    (["pendiente", "enviado", "archivado"] as const).map(
      async (tab) => (await listOrders(db, { tab, page: 1 })).total,
    ),
  );
  if (totals.reduce((a, b) => a + b, 0) !== PAID || (await countPending(db)) !== PENDING) {
    throw new BenchError(`the desk counts ${totals.join("/")} orders, expected ${PAID} paid ones`);
  }

  const server = await startServer(env);
  server.child.stderr?.pipe(process.stderr);
  servers.push(server);
  // http://127.0.0.1:<port>: HOST comes from the tests' environment.
  const origin = server.url;

  let allMet = true;
  console.log(`  HTTP, ${REQUESTS} sequential requests each after ${WARMUP} to warm up (ms):`);
  console.log(`    ${"request".padEnd(46)}  count    p50    p95    p99`);
  for (const c of cases) {
    for (const file of ["/admin/orders", "/admin/orders.data"]) {
      const pathname = `${file}${c.search}`;
      const times = await timeHttp(origin, cookie, pathname, c.expected);
      const p95 = percentile(times, 95);
      const met = p95 < TARGET_MS;
      allMet &&= met;
      console.log(
        `    ${pathname.padEnd(46)}  ${String(times.length).padStart(5)} ${ms(percentile(times, 50))} ${ms(p95)} ${ms(percentile(times, 99))}  ${met ? "PASS" : "FAIL"} (p95 < ${TARGET_MS} ms)`,
      );
    }
  }

  console.log(`  database time, in-process (ms):`);
  console.log(`    ${"call".padEnd(46)}  count    p50    p95`);
  const calls: [string, () => Promise<unknown>][] = [
    ...cases.map((c): [string, () => Promise<unknown>] => [
      `listOrders: ${c.label}`,
      () => firstPage(c.search),
    ]),
    ["countPending (admin menu, every admin page)", () => countPending(db)],
  ];
  for (const [name, call] of calls) {
    const times = await timeCalls(call);
    console.log(
      `    ${name.padEnd(46)}  ${String(times.length).padStart(5)} ${ms(percentile(times, 50))} ${ms(percentile(times, 95))}`,
    );
  }
  console.log(
    `  (name search: ${named.total} orders; order-number search: ${numbered.total}; page 1 shows up to 20)`,
  );

  await server.stop();
  servers.splice(servers.indexOf(server), 1);
  return allMet;
}

// Tail figures on a small machine move with whatever else it runs: say how busy it was.
console.log(`${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(1)} at the start.`);

let failed = false;
let allMet = true;
const cleanups: (() => Promise<void>)[] = [];
try {
  // SQLite: the embedded default.
  {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-admin-"));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const file = path.join(dataDir, "shop.db");
    const database = await openDatabase({ kind: "sqlite", file });
    cleanups.push(() => database.close());
    await migrateToLatest(database);
    allMet = (await bench("SQLite", database, { DATA_DIR: dataDir, DATABASE_URL: file })) && allMet;
  }

  // PostgreSQL: a fresh database of its own, dropped at the end.
  if (!PG_URL) {
    console.log("\nPostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL).");
  } else {
    const name = `bench_admin_${newId(10)}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    cleanups.push(async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    });
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-admin-pg-"));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const database = await openDatabase({ kind: "postgres", url: url.toString() });
    cleanups.push(() => database.close());
    await migrateToLatest(database);
    allMet =
      (await bench("PostgreSQL", database, { DATA_DIR: dataDir, DATABASE_URL: url.toString() })) && allMet;
  }
} catch (error) {
  failed = true;
  console.error(
    `\nBENCHMARK FAILED: ${error instanceof BenchError ? error.message : (error as Error).stack}`,
  );
} finally {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  for (const cleanup of cleanups.reverse()) {
    await cleanup().catch((error) => console.error(`cleanup: ${(error as Error).message}`));
  }
}

if (!failed) {
  console.log(
    allMet
      ? `\nEvery desk request answered within ${TARGET_MS} ms at p95.`
      : `\nSome desk requests missed ${TARGET_MS} ms at p95: see FAIL above.`,
  );
}
process.exit(failed ? 1 : 0);
