import { type Kysely, Migrator } from "kysely";
import { expect, it } from "vitest";
import { migrateToLatest } from "~/db/database.server";
import { migrations } from "~/db/migrations";
import { describeEachDatabase } from "../support/databases";
import { migrationsFrom } from "../support/migration-names";

const at = (iso: string) => iso;

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
