import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  type Kysely,
  type KyselyPlugin,
  type Migration,
  Migrator,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RawNode,
  type RootOperationNode,
  sql,
  type UnknownRow,
} from "kysely";
import { expect, it } from "vitest";
import { StartupError } from "~/config/startup-error";
import { type Database, migrateToLatest, openDatabase } from "~/db/database.server";
import { migrations } from "~/db/migrations";
import { describeEachDatabase } from "../support/databases";
import { migrationsFrom } from "../support/migration-names";

const at = (iso: string) => iso;

/** The names of the database's indexes, as { name } rows. */
async function indexNames(database: Database, dialect: string): Promise<{ name: string }[]> {
  return dialect === "sqlite"
    ? (await sql<{ name: string }>`select name from sqlite_master where type = 'index'`.execute(database.db))
        .rows
    : (await sql<{ name: string }>`select indexname as name from pg_indexes`.execute(database.db)).rows;
}

describeEachDatabase("migration 0007 (orders desk) on a shop that already has orders", (harness) => {
  it("keeps every e-mail, folds names for search, and marks the pieces a late payment never took", async () => {
    const database = await harness.fresh({ migrate: true });
    const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrations } });
    // Back to the shape the shop had before (this runs 0007's down too).
    const back = await migrator.migrateTo("0006_admin_accounts");
    expect(back.error).toBeUndefined();
    // biome-ignore lint/suspicious/noExplicitAny: the tables as they were at 0006, not today's types
    const old = database.db as unknown as Kysely<any>;
    const order = (id: string, name: string, stockIssue: string | null) => ({
      id,
      status: "pendiente",
      total_cents: 300_000,
      currency: "mxn",
      customer_name: name,
      customer_email: `${id.toLowerCase()}@example.mx`,
      payment_provider: "demo",
      expires_at: at("2026-05-01T12:30:00.000Z"),
      paid_at: at("2026-05-01T12:10:00.000Z"),
      stock_issue: stockIssue,
      created_at: at("2026-05-01T12:00:00.000Z"),
      updated_at: at("2026-05-01T12:10:00.000Z"),
    });
    await old
      .insertInto("orders")
      .values([
        order("OL-AAAAAAAA", "José Núñez", null),
        order(
          "OL-BBBBBBBB",
          "Renata Quiroga",
          "Pagado después de vencer el apartado, sin stock para: Collar Luna × 2",
        ),
      ])
      .execute();
    const line = (orderId: string, position: number, name: string, quantity: number) => ({
      order_id: orderId,
      position,
      product_id: `p${position}`,
      drop_id: "d1",
      name,
      unit_price_cents: 100_000,
      quantity,
    });
    await old
      .insertInto("order_lines")
      .values([
        line("OL-AAAAAAAA", 0, "Collar Luna", 3),
        line("OL-BBBBBBBB", 0, "Arete Sol", 1),
        line("OL-BBBBBBBB", 1, "Collar Luna", 2),
      ])
      .execute();
    await old
      .insertInto("emails")
      .values([
        {
          id: "mail0000000000a1",
          order_id: "OL-AAAAAAAA",
          kind: "confirmacion",
          created_at: at("2026-05-01T12:10:00.000Z"),
          claimed_at: at("2026-05-01T12:10:01.000Z"),
          sent_at: at("2026-05-01T12:10:02.000Z"),
          attempts: 1,
          last_error: null,
        },
        {
          id: "mail0000000000b1",
          order_id: "OL-BBBBBBBB",
          kind: "confirmacion",
          created_at: at("2026-05-01T12:10:00.000Z"),
          claimed_at: at("2026-05-01T12:10:01.000Z"),
          sent_at: null,
          attempts: 3,
          last_error: "SMTP 421",
        },
      ])
      .execute();

    expect(await migrateToLatest(database)).toEqual(migrationsFrom("0007_orders_desk"));

    const db = database.db;
    const emails = await db
      .selectFrom("emails")
      .select(["id", "kind", "recipient", "order_id", "dedupe_key", "sent_at", "attempts", "last_error"])
      .orderBy("id")
      .execute();
    expect(
      emails.map((e) => ({ ...e, sent_at: e.sent_at ? new Date(e.sent_at).toISOString() : null })),
    ).toEqual([
      {
        id: "mail0000000000a1",
        kind: "confirmacion",
        recipient: "ol-aaaaaaaa@example.mx",
        order_id: "OL-AAAAAAAA",
        dedupe_key: "confirmacion:OL-AAAAAAAA",
        sent_at: "2026-05-01T12:10:02.000Z",
        attempts: 1,
        last_error: null,
      },
      {
        id: "mail0000000000b1",
        kind: "confirmacion",
        recipient: "ol-bbbbbbbb@example.mx",
        order_id: "OL-BBBBBBBB",
        dedupe_key: "confirmacion:OL-BBBBBBBB",
        sent_at: null,
        attempts: 3,
        last_error: "SMTP 421",
      },
    ]);
    const searchable = await db.selectFrom("orders").select(["id", "search_text"]).orderBy("id").execute();
    // Folded by 0007; 0022 adds the e-mail.
    expect(searchable).toEqual([
      { id: "OL-AAAAAAAA", search_text: "ol-aaaaaaaa jose nunez ol-aaaaaaaa@example.mx" },
      { id: "OL-BBBBBBBB", search_text: "ol-bbbbbbbb renata quiroga ol-bbbbbbbb@example.mx" },
    ]);
    const lines = await db
      .selectFrom("order_lines")
      .select(["order_id", "name", "missing"])
      .orderBy("order_id")
      .orderBy("position")
      .execute();
    expect(lines).toEqual([
      { order_id: "OL-AAAAAAAA", name: "Collar Luna", missing: 0 },
      { order_id: "OL-BBBBBBBB", name: "Arete Sol", missing: 0 },
      { order_id: "OL-BBBBBBBB", name: "Collar Luna", missing: 2 },
    ]);
    // A replayed confirmation still queues nothing new: the key came along.
    const again = await db
      .insertInto("emails")
      .values({
        id: "mail0000000000a2",
        kind: "confirmacion",
        recipient: "x@example.mx",
        order_id: "OL-AAAAAAAA",
        dedupe_key: "confirmacion:OL-AAAAAAAA",
        created_at: at("2026-05-02T00:00:00.000Z"),
        claimed_at: null,
        next_attempt_at: null,
        sent_at: null,
        attempts: 0,
        last_error: null,
      })
      .onConflict((oc) => oc.column("dedupe_key").doNothing())
      .executeTakeFirst();
    expect(Number(again.numInsertedOrUpdatedRows ?? 0)).toBe(0);

    // And back down once more: the old table returns with the order e-mails.
    expect((await migrator.migrateTo("0006_admin_accounts")).error).toBeUndefined();
    const restored = await old
      .selectFrom("emails")
      .select(["id", "order_id", "kind"])
      .orderBy("id")
      .execute();
    expect(restored).toEqual([
      { id: "mail0000000000a1", order_id: "OL-AAAAAAAA", kind: "confirmacion" },
      { id: "mail0000000000b1", order_id: "OL-BBBBBBBB", kind: "confirmacion" },
    ]);
    expect(await migrateToLatest(database)).toEqual(migrationsFrom("0007_orders_desk"));
  });
});

/** The migrations up to `last`: what a shop that stopped upgrading there ran. */
const upTo = (last: string) =>
  Object.fromEntries(Object.entries(migrations).filter(([name]) => name <= last));

/**
 * Stands for a process stopped part-way through a migration: once the statements it ran (through
 * Kysely: raw SQL, or the kind of statement) answer `stop`, throws. Records them, to choose where.
 */
class StopAfter implements KyselyPlugin {
  readonly ran: string[] = [];
  readonly #labels = new Map<string, string>();
  constructor(
    private readonly stop: (ran: string[]) => boolean,
    private readonly beforeStop: () => void = () => {},
  ) {}
  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    const label = node.kind === "RawNode" ? (node as RawNode).sqlFragments.join("?") : node.kind;
    this.#labels.set(queryId.queryId, label);
    return node;
  }
  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.ran.push(this.#labels.get(queryId.queryId) ?? "?");
    if (this.stop(this.ran)) {
      this.beforeStop();
      throw new Error("corte simulado");
    }
    return result;
  }
}

const after = (k: number) => new StopAfter((ran) => ran.length === k);

/** Every migration, with `name` run through `plugin`. */
function withPlugin(name: string, plugin: KyselyPlugin): Record<string, Migration> {
  const migration = migrations[name];
  if (!migration) throw new Error(`no migration ${name}`);
  return { ...migrations, [name]: { ...migration, up: (db) => migration.up(db.withPlugin(plugin)) } };
}

/** An order with two lines and an e-mail, written as the tables were at 0015. */
// biome-ignore lint/suspicious/noExplicitAny: the tables as they were at 0015, not today's types
async function seedAt0015(old: Kysely<any>): Promise<void> {
  await old
    .insertInto("orders")
    .values({
      id: "OL-CCCCCCCC",
      status: "pendiente",
      total_cents: 250_000,
      currency: "mxn",
      customer_name: "Lucía Ibarra",
      customer_email: "lucia@example.mx",
      payment_provider: "demo",
      expires_at: at("2026-05-01T12:30:00.000Z"),
      paid_at: at("2026-05-01T12:10:00.000Z"),
      created_at: at("2026-05-01T12:00:00.000Z"),
      updated_at: at("2026-05-01T12:10:00.000Z"),
    })
    .execute();
  await old
    .insertInto("order_lines")
    .values(
      [0, 1].map((position) => ({
        order_id: "OL-CCCCCCCC",
        position,
        product_id: `p${position}`,
        drop_id: "d1",
        name: position === 0 ? "Collar Luna" : "Arete Sol",
        unit_price_cents: 125_000,
        quantity: 1,
      })),
    )
    .execute();
  await old
    .insertInto("emails")
    .values({
      id: "mail0000000000c1",
      kind: "confirmacion",
      recipient: "lucia@example.mx",
      order_id: "OL-CCCCCCCC",
      dedupe_key: "confirmacion:OL-CCCCCCCC",
      created_at: at("2026-05-01T12:10:00.000Z"),
    })
    .execute();
}

/** The database's tables, columns, constraints and indexes, and every row (the migrations' names, not when they ran). */
async function snapshot(database: Database): Promise<unknown> {
  // biome-ignore lint/suspicious/noExplicitAny: any table of any version
  const db = database.db as unknown as Kysely<any>;
  const schema =
    database.dialect === "sqlite"
      ? (
          await sql`select type, name, tbl_name, sql from sqlite_master
            where name not like 'sqlite_%' order by type, name`.execute(db)
        ).rows
      : [
          ...(
            await sql`select table_name, column_name, data_type, column_default, is_nullable, ordinal_position
              from information_schema.columns where table_schema = 'public' order by table_name, ordinal_position`.execute(
              db,
            )
          ).rows,
          ...(
            await sql`select conrelid::regclass::text as table_name, conname, pg_get_constraintdef(oid) as definition
              from pg_constraint where connamespace = 'public'::regnamespace order by 1, 2`.execute(db)
          ).rows,
          ...(
            await sql`select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' order by 1, 2`.execute(
              db,
            )
          ).rows,
        ];
  const tables = (await db.introspection.getTables({ withInternalKyselyTables: true }))
    .map((t) => t.name)
    .sort();
  const rows: Record<string, string[]> = {};
  for (const table of tables) {
    const query = db.selectFrom(table);
    const found = await (table === "kysely_migration" ? query.select("name") : query.selectAll()).execute();
    rows[table] = found.map((row) => JSON.stringify(row)).sort();
  }
  return { schema, rows };
}

describeEachDatabase("migrations stopped part-way leave no trace", (harness) => {
  it("0016 stopped at its first statement, in or after its table rebuild, after its last, or a later migration stopped: all undone, then the next start equals a clean run", async () => {
    // The clean run: 0015, the seeded order, then every migration at once.
    const clean = await harness.fresh({ empty: true });
    await migrateToLatest(clean, { migrations: upTo("0015_fair_opening") });
    await seedAt0015(clean.db as unknown as Kysely<unknown>);
    const counted = new StopAfter(() => false);
    expect(
      await migrateToLatest(clean, { migrations: withPlugin("0016_per_person_limit", counted) }),
    ).toEqual(migrationsFrom("0016_per_person_limit"));
    // In its table rebuild: SQLite's new orders table renamed into place, PostgreSQL's new check.
    const rebuilding =
      counted.ran.findIndex((label) => /rename to orders|add constraint orders_status_check/.test(label)) + 1;
    // After it: its first new column (on SQLite the rebuild's own transaction used to be committed by then).
    const firstColumn = counted.ran.indexOf("AlterTableNode") + 1;
    expect(0 < rebuilding && rebuilding < firstColumn && firstColumn < counted.ran.length).toBe(true);

    const database = await harness.fresh({ empty: true });
    await migrateToLatest(database, { migrations: upTo("0015_fair_opening") });
    await seedAt0015(database.db as unknown as Kysely<unknown>);
    const at0015 = await snapshot(database);
    for (const k of [1, rebuilding, firstColumn, counted.ran.length]) {
      await expect(
        migrateToLatest(database, { migrations: withPlugin("0016_per_person_limit", after(k)) }),
      ).rejects.toThrow(new StartupError("La migración 0016_per_person_limit falló: corte simulado"));
      expect(await snapshot(database), `stopped after statement ${k}`).toEqual(at0015);
    }
    // A later migration stopped: 0016 to 0038 (two table rebuilds) are undone with it.
    await expect(
      migrateToLatest(database, { migrations: withPlugin("0039_missing_refunded", after(1)) }),
    ).rejects.toThrow("La migración 0039_missing_refunded falló: corte simulado");
    expect(await snapshot(database)).toEqual(at0015);

    expect(await migrateToLatest(database)).toEqual(migrationsFrom("0016_per_person_limit"));
    expect(await snapshot(database)).toEqual(await snapshot(clean));
    // The order's lines and e-mail were not deleted with the old orders table.
    const lines = await database.db
      .selectFrom("order_lines")
      .select(["order_id", "name"])
      .orderBy("position")
      .execute();
    expect(lines).toEqual([
      { order_id: "OL-CCCCCCCC", name: "Collar Luna" },
      { order_id: "OL-CCCCCCCC", name: "Arete Sol" },
    ]);
    expect(await database.db.selectFrom("emails").select("order_id").execute()).toEqual([
      { order_id: "OL-CCCCCCCC" },
    ]);
    if (harness.dialect === "sqlite") {
      expect((await sql`pragma foreign_key_check`.execute(database.db)).rows).toEqual([]);
      expect((await sql`pragma foreign_keys`.execute(database.db)).rows).toEqual([{ foreign_keys: 1 }]);
    }
  });

  it.runIf(harness.dialect === "sqlite")(
    "a process killed in 0016 after its table rebuild and first new column (the files as it left them) starts again and migrates",
    async () => {
      const database = await harness.fresh({ empty: true });
      await migrateToLatest(database, { migrations: upTo("0015_fair_opening") });
      await seedAt0015(database.db as unknown as Kysely<unknown>);
      const at0015 = await snapshot(database);
      const file = database.file ?? "";
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-killed-"));
      const left = path.join(dir, "shop.db");
      // What the disk holds at that instant, the write-ahead log with it: all a kill -9 leaves.
      const kill = () => {
        for (const suffix of ["", "-wal"])
          if (fs.existsSync(`${file}${suffix}`)) fs.copyFileSync(`${file}${suffix}`, `${left}${suffix}`);
      };
      const stop = new StopAfter((ran) => ran.at(-1) === "AlterTableNode", kill);
      await expect(
        migrateToLatest(database, { migrations: withPlugin("0016_per_person_limit", stop) }),
      ).rejects.toThrow("corte simulado");

      const restarted = await openDatabase({ kind: "sqlite", file: left });
      try {
        expect(await snapshot(restarted)).toEqual(at0015);
        expect(await migrateToLatest(restarted)).toEqual(migrationsFrom("0016_per_person_limit"));
        expect(await migrateToLatest(database)).toEqual(migrationsFrom("0016_per_person_limit"));
        expect(await snapshot(restarted)).toEqual(await snapshot(database));
        expect((await sql`pragma foreign_key_check`.execute(restarted.db)).rows).toEqual([]);
      } finally {
        await restarted.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it.runIf(harness.dialect === "sqlite")(
    "a migration that leaves rows pointing at nothing fails and is undone; rows broken before it do not stop a start",
    async () => {
      const database = await harness.fresh();
      const db = database.db as unknown as Kysely<unknown>;
      // A line whose order was deleted by hand, foreign keys off, long ago.
      await sql`pragma foreign_keys = off`.execute(db);
      await sql`insert into order_lines (order_id, position, product_id, drop_id, name, unit_price_cents, quantity)
        values ('OL-GONEGONE', 0, 'p0', 'd1', 'Collar Luna', 100000, 1)`.execute(db);
      await sql`pragma foreign_keys = on`.execute(db);
      const harmless = { up: async () => {} };
      expect(
        await migrateToLatest(database, { migrations: { ...migrations, "9001_harmless": harmless } }),
      ).toEqual(["9001_harmless"]);

      await sql`insert into orders (id, status, total_cents, currency, customer_name, customer_email, payment_provider,
        expires_at, created_at, updated_at)
        values ('OL-DDDDDDDD', 'pendiente', 100000, 'mxn', 'Ana', 'ana@example.mx', 'demo', '2026-05-01T12:30:00.000Z',
          '2026-05-01T12:00:00.000Z', '2026-05-01T12:00:00.000Z')`.execute(db);
      await sql`insert into order_lines (order_id, position, product_id, drop_id, name, unit_price_cents, quantity)
        values ('OL-DDDDDDDD', 0, 'p0', 'd1', 'Arete Sol', 100000, 1)`.execute(db);
      const orphaning: Migration = {
        async up(trx) {
          await sql`delete from orders where id = 'OL-DDDDDDDD'`.execute(trx);
        },
      };
      await expect(
        migrateToLatest(database, {
          migrations: { ...migrations, "9001_harmless": harmless, "9002_orphaning": orphaning },
        }),
      ).rejects.toThrow(
        "La migración 9002_orphaning falló: dejó filas que apuntan a filas que no existen: order_lines→orders (1)",
      );
      expect(
        await database.db.selectFrom("orders").select("id").where("id", "=", "OL-DDDDDDDD").execute(),
      ).toEqual([{ id: "OL-DDDDDDDD" }]);
      expect((await sql`pragma foreign_keys`.execute(db)).rows).toEqual([{ foreign_keys: 1 }]);
    },
  );

  it.runIf(harness.dialect === "sqlite")(
    "a start waits for another process's migrations without holding the event loop, and says in Spanish when it gives up",
    async () => {
      const database = await harness.fresh();
      const other = new SQLite(`${database.file}-migrations.lock`);
      other.exec("BEGIN EXCLUSIVE");
      let ticks = 0;
      const timer = setInterval(() => ticks++, 20);
      try {
        const started = Date.now();
        await expect(migrateToLatest(database, { lockWaitMs: 400 })).rejects.toThrow(
          new StartupError(
            `Otro proceso lleva más de 1 s migrando la base de datos ${database.file} (tiene tomado ${database.file}-migrations.lock): espera a que termine, o detenlo, y vuelve a arrancar.`,
          ),
        );
        expect(Date.now() - started).toBeGreaterThanOrEqual(400);
        expect(ticks).toBeGreaterThan(5);
        // The other process finishes: the waiting start goes on.
        setTimeout(() => other.exec("COMMIT"), 300);
        expect(await migrateToLatest(database)).toEqual([]);
      } finally {
        clearInterval(timer);
        if (other.inTransaction) other.exec("COMMIT");
        other.close();
      }
    },
  );
});

describeEachDatabase("migration 0043 (indexes for a shop a year on)", (harness) => {
  it("the hot reads of a big shop find their index: a drop's lines, a month's sales, the desk's tab, a sign-up's e-mail", async () => {
    const database = await harness.fresh();
    const names = await indexNames(database, harness.dialect);
    expect(names.map((r) => r.name)).toEqual(
      expect.arrayContaining([
        "order_lines_by_drop",
        "orders_status_paid",
        "orders_tab",
        "orders_missing_refund_due",
        "waitlist_subscriptions_by_email",
        "login_failures_by_time",
        "restock_requests_by_option",
      ]),
    );
    if (harness.dialect !== "sqlite") return;
    // SQLite plans without statistics: each read below uses its index, not a scan of the table.
    const plan = async (query: ReturnType<typeof sql>) =>
      (await sql<{ detail: string }>`explain query plan ${query}`.execute(database.db)).rows
        .map((r) => r.detail)
        .join("; ");
    expect(await plan(sql`select product_id, quantity from order_lines where drop_id = ${"d"}`)).toContain(
      "order_lines_by_drop",
    );
    expect(
      await plan(
        sql`select id from orders where status in ('pendiente', 'enviado') and paid_at >= ${"2026-10-01"} and paid_at < ${"2026-11-01"}`,
      ),
    ).toContain("orders_status_paid");
    expect(
      await plan(sql`select count(*) from orders where status = ${"archivado"} and removed_at is null`),
    ).toContain("COVERING INDEX orders_tab");
    expect(
      await plan(sql`update waitlist_subscriptions set status = 'baja' where email = ${"ana@example.mx"}`),
    ).toContain("waitlist_subscriptions_by_email");
    // The opening notices' job, every minute: the running drops' addresses, not every sign-up.
    expect(
      await plan(
        sql`select id from waitlist_subscriptions where drop_id in (${"a"}, ${"b"}) and status = 'confirmada' and notified_at is null order by created_at limit 100`,
      ),
    ).toContain("waitlist_to_notify_idx");
  });
});

describeEachDatabase("migration 0045 (the mail queue and the opening notices in a crowd)", (harness) => {
  it("a batch of due e-mails and of sign-ups to tell reads its rows in order from an index, not a sort of the backlog", async () => {
    const database = await harness.fresh();
    if (harness.dialect !== "sqlite") {
      const names = (
        await sql<{ name: string }>`select indexname as name from pg_indexes`.execute(database.db)
      ).rows;
      expect(names.map((r) => r.name)).toEqual(
        expect.arrayContaining(["emails_due_by_kind", "waitlist_to_notify_idx"]),
      );
      const statistics = await sql<{ name: string }>`select stxname as name from pg_statistic_ext`.execute(
        database.db,
      );
      expect(statistics.rows.map((r) => r.name)).toContain("emails_unsent_by_kind");
      return;
    }
    const plan = async (query: ReturnType<typeof sql>) =>
      (await sql<{ detail: string }>`explain query plan ${query}`.execute(database.db)).rows
        .map((r) => r.detail)
        .join("; ");
    const due = sql`select * from emails where sent_at is null and attempts < ${30} and (next_attempt_at is null or next_attempt_at <= ${"2026-11-01"})`;
    // The other kinds: two ranges of the index, then the few rows sorted.
    const others = await plan(
      sql`${due} and (kind < ${"avisame_apertura"} or kind > ${"avisame_apertura"}) order by coalesce(sent_at, created_at) limit 20`,
    );
    expect(others).toContain("emails_due_by_kind (sent_at=? AND kind<?)");
    expect(others).toContain("emails_due_by_kind (sent_at=? AND kind>?)");
    // The opening notices: in the index's order, no sort.
    const notices = await plan(
      sql`${due} and kind in (${"avisame_apertura"}) order by sent_at, created_at limit 20`,
    );
    expect(notices).toContain("emails_due_by_kind (sent_at=? AND kind=?)");
    expect(notices).not.toContain("TEMP B-TREE");
    const toTell = await plan(
      sql`select id, email, drop_id, created_at from waitlist_subscriptions where drop_id = ${"d"} and status = ${"confirmada"} and notified_at is null order by notified_at, created_at limit 100`,
    );
    expect(toTell).toContain("waitlist_to_notify_idx (drop_id=? AND status=? AND notified_at=?)");
    expect(toTell).not.toContain("TEMP B-TREE");
  });
});

describeEachDatabase("migration 0046 (a drop's line, as its rounds read it)", (harness) => {
  it("a round's sweep of places nobody looks at and its read of the line in order find their index", async () => {
    const database = await harness.fresh();
    const names = await indexNames(database, harness.dialect);
    const indexes = names.map((r) => r.name);
    expect(indexes).toEqual(expect.arrayContaining(["drop_line_by_seen", "drop_line_in_order"]));
    expect(indexes).not.toContain("drop_line_by_place");
    if (harness.dialect !== "sqlite") return;
    const plan = async (query: ReturnType<typeof sql>) =>
      (await sql<{ detail: string }>`explain query plan ${query}`.execute(database.db)).rows
        .map((r) => r.detail)
        .join("; ");
    expect(
      await plan(
        sql`update drop_line set status = 'retirado' where drop_id = ${"d"} and status = 'esperando' and seen_at < ${"2026-11-01"}`,
      ),
    ).toContain("drop_line_by_seen (drop_id=? AND status=? AND seen_at<?)");
    // The ids and notes of the places waiting, in order, from the index alone: no table, no sort.
    expect(
      await plan(
        sql`select id, note from drop_line where drop_id = ${"d"} and status = 'esperando' order by place, id`,
      ),
    ).toBe("SEARCH drop_line USING COVERING INDEX drop_line_in_order (drop_id=? AND status=?)");
    expect(
      await plan(
        sql`select place from drop_line where drop_id = ${"d"} and status = 'esperando' order by place`,
      ),
    ).toContain("COVERING INDEX");
  });
});

describeEachDatabase("migration 0048 (the failed e-mails the administration counts)", (harness) => {
  it("the count of failed unsent e-mails reads their partial index, not the unsent backlog", async () => {
    const database = await harness.fresh();
    const names = await indexNames(database, harness.dialect);
    expect(names.map((r) => r.name)).toContain("emails_failed_unsent");
    if (harness.dialect !== "sqlite") return;
    const plan = (
      await sql<{ detail: string }>`explain query plan select count(*) from emails
        where sent_at is null and created_at >= ${"2026-11-01"} and last_error is not null and order_id is not null`.execute(
        database.db,
      )
    ).rows
      .map((r) => r.detail)
      .join("; ");
    expect(plan).toContain("emails_failed_unsent (sent_at=? AND created_at>?)");
  });
});
