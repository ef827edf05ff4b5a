import { type Kysely, Migrator } from "kysely";
import { expect, it } from "vitest";
import { createDrop, getDrop, listDrops, type NewDrop, PUBLIC_ALL_ALONG } from "~/catalogue/catalogue.server";
import { adminTab } from "~/catalogue/publishing";
import { cartProducts } from "~/catalogue/views.server";
import { type Database, migrateToLatest, toDate, toTimestamp } from "~/db/database.server";
import { migrations } from "~/db/migrations";
import { listAdminDrops, settleStartedDrops } from "~/drops-desk/list.server";
import { publishDrop, unpublishDrop } from "~/drops-desk/publish.server";
import { createLocalStorage } from "~/media/local-storage.server";
import { holdCart } from "~/orders/holds.server";
import { signUp } from "~/waitlist/waitlist.server";
import { describeEachDatabase } from "../support/databases";

/* Drafts and publishing (decision 38), on both databases. */

const HOUR = 3_600_000;
const now = new Date("2026-11-22T12:00:00.000Z");
const at = (ms: number) => new Date(now.getTime() + ms);
const storage = createLocalStorage("/nonexistent-media-root");

async function aDrop(database: Database, name: string, over: Partial<NewDrop> = {}) {
  return createDrop(
    database.db,
    {
      name,
      startAt: at(-HOUR),
      endAt: at(HOUR),
      products: [
        {
          name: `Anillo ${name}`,
          categoria: "Anillo",
          material: "Oro rosa",
          priceCents: 90_000,
          stock: 3,
          imageId: null,
        },
      ],
      ...over,
    },
    now,
  );
}

describeEachDatabase("drafts and publishing", (harness) => {
  it("migration 0025 keeps every existing drop public from its creation", async () => {
    const database = await harness.fresh({ migrate: true });
    const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrations } });
    const back = await migrator.migrateTo("0023_paid_orders_kept");
    expect(back.error).toBeUndefined();
    // biome-ignore lint/suspicious/noExplicitAny: the table as it was before 0025, not today's types
    const old = database.db as unknown as Kysely<any>;
    const created = "2025-03-01T10:00:00.000Z";
    await old
      .insertInto("drops")
      .values({
        id: "viejadrop0000001",
        name: "Antes de los borradores",
        small_description: "",
        full_description: "",
        description: "",
        fechas: "",
        start_at: toTimestamp(at(-HOUR)),
        end_at: toTimestamp(at(HOUR)),
        status: "activa",
        created_at: created,
        updated_at: created,
      })
      .execute();
    expect(await migrateToLatest(database)).toContain("0025_drafts");
    const row = await database.db
      .selectFrom("drops")
      .select("visible_from")
      .where("id", "=", "viejadrop0000001")
      .executeTakeFirstOrThrow();
    expect(row.visible_from === null ? null : toDate(row.visible_from).toISOString()).toBe(created);
    expect((await listDrops(database.db, { visibleAt: now })).map((d) => d.id)).toEqual(["viejadrop0000001"]);
    expect(await getDrop(database.db, "viejadrop0000001", { visibleAt: now })).not.toBeNull();
  });

  it("createDrop makes public drops unless asked for a draft", async () => {
    const database = await harness.fresh();
    const open = await getDrop(database.db, await aDrop(database, "Pública"));
    expect(open?.visibleFrom?.toISOString()).toBe(PUBLIC_ALL_ALONG.toISOString());
    const draft = await getDrop(database.db, await aDrop(database, "Borrador", { visibleFrom: null }));
    expect(draft?.visibleFrom).toBeNull();
  });

  it("drafts and drops before their 'Visible desde' are out of every public read; past ones are in", async () => {
    const database = await harness.fresh();
    const shown = await aDrop(database, "Visible", { visibleFrom: at(-1000) });
    const draft = await aDrop(database, "Borrador", { visibleFrom: null });
    const later = await aDrop(database, "Programada", { visibleFrom: at(1000) });
    const upcomingDraft = await aDrop(database, "Teaser", {
      visibleFrom: null,
      startAt: at(2 * HOUR),
      endAt: at(3 * HOUR),
    });

    // Lists (home, /colecciones, sitemap) and a drop's own address.
    expect((await listDrops(database.db, { visibleAt: now })).map((d) => d.name)).toEqual(["Visible"]);
    expect((await listDrops(database.db, { products: false, visibleAt: now })).map((d) => d.name)).toEqual([
      "Visible",
    ]);
    for (const id of [draft, later, upcomingDraft]) {
      expect(await getDrop(database.db, id, { visibleAt: now })).toBeNull();
      expect(await getDrop(database.db, id, { extraImages: true, visibleAt: now })).toBeNull();
      // The admin (no `visibleAt`) sees it.
      expect(await getDrop(database.db, id)).not.toBeNull();
    }
    expect(await getDrop(database.db, shown, { visibleAt: now })).not.toBeNull();
    // A second past 'Visible desde' the scheduled one is in.
    expect((await listDrops(database.db, { visibleAt: at(1000) })).map((d) => d.name).sort()).toEqual([
      "Programada",
      "Visible",
    ]);

    // The cart's revalidation skips a draft's pieces like unknown ones.
    const pieceOf = async (id: string) => (await getDrop(database.db, id))?.products[0]?.id ?? "";
    const ids = await Promise.all([shown, draft, later].map(pieceOf));
    expect((await cartProducts(database.db, storage, ids, now)).map((p) => p.name)).toEqual([
      "Anillo Visible",
    ]);

    // Checkout refuses a draft's piece, and a scheduled one's before its moment.
    for (const id of [draft, later]) {
      for (const precheck of [true, false]) {
        const refused = await holdCart(database.db, {
          lines: [{ productId: await pieceOf(id), dropId: id, quantity: 1 }],
          provider: "demo",
          now,
          precheck,
        });
        expect(refused).toMatchObject({ ok: false, reason: "no_encontrado" });
      }
    }
    const held = await holdCart(database.db, {
      lines: [{ productId: await pieceOf(later), dropId: later, quantity: 1 }],
      provider: "demo",
      now: at(1000),
    });
    expect(held.ok).toBe(true);

    // 'Avísame' does not take sign-ups for a draft.
    const asked = await signUp(database.db, {
      dropId: upcomingDraft,
      email: "ana@example.mx",
      consent: "si",
      siteUrl: "http://tienda.test",
      from: { address: "10.0.0.1", proven: true },
      now,
    });
    expect(asked).toEqual({ ok: false, reason: "drop_no_encontrado" });
  });

  it("the admin's tabs follow one rule; a published drop's status becomes activa at its start", async () => {
    const database = await harness.fresh();
    const draftStarted = await aDrop(database, "Borrador empezado", { visibleFrom: null });
    const upcoming = await aDrop(database, "Próxima", { startAt: at(HOUR), endAt: at(2 * HOUR) });
    const started = await aDrop(database, "Empezada");
    const ended = await aDrop(database, "Terminada", { startAt: at(-3 * HOUR), endAt: at(-2 * HOUR) });
    const archived = await aDrop(database, "Archivada", { status: "archivada" });
    const scheduled = await aDrop(database, "Teaser", {
      visibleFrom: at(30 * 60_000),
      startAt: at(HOUR),
      endAt: at(2 * HOUR),
    });

    const tab = async (which: "activa" | "proximamente" | "archivada", when = now) =>
      (await listAdminDrops(database.db, which, when)).map((d) => d.id).sort();
    expect(await tab("activa")).toEqual([started, ended].sort());
    expect(await tab("proximamente")).toEqual([draftStarted, upcoming, scheduled].sort());
    expect(await tab("archivada")).toEqual([archived]);
    const status = async (id: string) =>
      (await database.db.selectFrom("drops").select("status").where("id", "=", id).executeTakeFirstOrThrow())
        .status;
    // Read by the admin, the stored status followed the dates: published and started is activa.
    expect(await status(started)).toBe("activa");
    expect(await status(ended)).toBe("activa");
    expect(await status(draftStarted)).toBe("proximamente");
    expect(await status(upcoming)).toBe("proximamente");
    // Each row says what it is.
    const rows = await listAdminDrops(database.db, "proximamente", now);
    expect(Object.fromEntries(rows.map((r) => [r.name, [r.publication, r.timeState]]))).toEqual({
      "Borrador empezado": ["borrador", "running"],
      Próxima: ["publicada", "pending"],
      Teaser: ["programada", "pending"],
    });
    const ends = await listAdminDrops(database.db, "activa", now);
    expect(ends.find((r) => r.id === ended)?.timeState).toBe("ended");

    // At their start, with no admin action, the upcoming ones move to Activas.
    const later = at(HOUR);
    expect(await tab("activa", later)).toEqual([started, ended, upcoming, scheduled].sort());
    expect(await status(upcoming)).toBe("activa");
    // Published later, the draft moves too; back to a draft, it returns to Próximas.
    expect(await publishDrop(database.db, draftStarted, null, later)).toEqual({ ok: true });
    expect(await settleStartedDrops(database.db, later)).toBe(1);
    expect(await tab("activa", later)).toContain(draftStarted);
    expect(await unpublishDrop(database.db, draftStarted)).toEqual({ ok: true });
    expect(await tab("proximamente", later)).toEqual([draftStarted]);

    // The rule itself: the status by hand never puts a drop in a tab its dates contradict.
    const rule = (status: "activa" | "proximamente" | "archivada", visibleFrom: Date | null, startAt: Date) =>
      adminTab({ status, visibleFrom, startAt }, now);
    expect(rule("activa", now, at(HOUR))).toBe("proximamente");
    expect(rule("proximamente", at(-1), at(-1))).toBe("activa");
    expect(rule("activa", null, at(-1))).toBe("proximamente");
    expect(rule("archivada", at(-1), at(-1))).toBe("archivada");
  });

  it("'Visible desde' after the drop's end is refused in Spanish and changes nothing", async () => {
    const database = await harness.fresh();
    const id = await aDrop(database, "Borrador", { visibleFrom: null });
    expect(await publishDrop(database.db, id, at(2 * HOUR), now)).toEqual({
      ok: false,
      reason: "visible_desde",
      message: "'Visible desde' debe ser antes del fin de la colección.",
    });
    expect((await getDrop(database.db, id))?.visibleFrom).toBeNull();
    expect(await publishDrop(database.db, "no-existe", null, now)).toMatchObject({ reason: "no_encontrado" });
  });
});
