import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, expect, it } from "vitest";
import { createDrop } from "~/catalogue/catalogue.server";
import { loadConfig } from "~/config/env.server";
import { type Database, openDatabase, toTimestamp } from "~/db/database.server";
import { createDropFromInput } from "~/drops-desk/create.server";
import { dropInput } from "~/drops-desk/drop-input";
import { dropForEdit } from "~/drops-desk/edit-form.server";
import type { DropFormValues } from "~/drops-desk/form-values";
import { publishDrop } from "~/drops-desk/publish.server";
import { updateDropFromInput } from "~/drops-desk/update.server";
import { shopDateTimeStamp } from "~/lib/dates";
import { newId } from "~/lib/ids";
import { RESTOCK_CONFIRM_EMAIL, RESTOCK_EMAIL } from "~/mail/kinds";
import type { QueuedEmail } from "~/mail/queue.server";
import { createLocalStorage } from "~/media/local-storage.server";
import { storeImage } from "~/media/media.server";
import type { MediaStorage } from "~/media/storage.server";
import { releaseHold } from "~/orders/holds.server";
import type { PaymentProvider } from "~/orders/payment-port";
import { sweepExpiredHolds } from "~/orders/sweeper.server";
import { createWaitlistLinks, verifyListToken } from "~/waitlist/links.server";
import { askRestock, confirmRestock, piecesCameBack, unsubscribeRestock } from "~/waitlist/restock.server";
import { restockEmailTemplates } from "~/waitlist/restock-templates.server";
import { confirmSubscription, signUp } from "~/waitlist/waitlist.server";
import { runningPiece, upcomingDrop } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { hold } from "../support/orders";

/*
 * 'Avísame si vuelve' (issue 27, decision 46) on both databases: a sold-out piece (or size) takes
 * addresses, double opt-in; when pieces come back — a hold released, the owner's stock added — the
 * first confirmed addresses, oldest first, are told, as many as pieces came back, never the
 * unconfirmed, never twice; two notices for one piece that came back reach one address.
 */

const SITE = "http://tienda.test:3000";
const MINUTE = 60_000;
const DAY = 86_400_000;
const shop = loadConfig({}).shop;
const links = createWaitlistLinks("secreto-de-prueba-".repeat(3));
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

function storage(): MediaStorage {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "shop-restock-"));
  roots.push(root);
  return createLocalStorage(root);
}

/** Each request from an address of its own: the caps (decision 31) have tests of their own. */
let asked = 0;
const from = () => {
  asked++;
  return { address: `10.9.${(asked >> 8) & 255}.${asked & 255}`, proven: true };
};

/** Asks for the piece (or size) at `now` and, unless told otherwise, confirms the address. */
async function waitFor(
  database: Database,
  productId: string,
  email: string,
  options: { optionId?: string; now: Date; confirm?: boolean },
) {
  const result = await askRestock(database.db, {
    productId,
    optionId: options.optionId ?? null,
    email,
    consent: "si",
    siteUrl: SITE,
    from: from(),
    now: options.now,
  });
  if (!result.ok || result.outcome === "limitada") throw new Error(`not asked: ${JSON.stringify(result)}`);
  if (options.confirm !== false) {
    expect(await confirmRestock(database.db, result.subscriptionId, options.now)).toMatchObject({ ok: true });
  }
  return result.subscriptionId;
}

/** Who was told their piece is back, in alphabetical order (one moment's notices share their time). */
async function told(database: Database): Promise<string[]> {
  const rows = await database.db
    .selectFrom("emails")
    .select("recipient")
    .where("kind", "=", RESTOCK_EMAIL)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((r) => r.recipient).sort();
}

/** A sold-out piece (its last `stock` pieces in one unpaid checkout) and the hold that took them. */
async function soldOutPiece(database: Database, stock: number) {
  const piece = await runningPiece(database, { stock });
  const order = await hold(database.db, {
    lines: [{ productId: piece.id, dropId: piece.dropId, quantity: stock }],
    provider: "demo",
  });
  expect(await piece.stock()).toBe(0);
  return { piece, order };
}

/** A line of people asking one minute apart, from `start`: the first confirmed, the second not, then confirmed. */
async function line(
  database: Database,
  productId: string,
  emails: string[],
  start: number,
  optionId?: string,
) {
  for (const [i, email] of emails.entries()) {
    await waitFor(database, productId, email, {
      now: new Date(start + i * MINUTE),
      confirm: !email.startsWith("sin-confirmar"),
      ...(optionId ? { optionId } : {}),
    });
  }
}

function queued(database: Database, id: string): Promise<QueuedEmail> {
  return database.db
    .selectFrom("emails")
    .select(["id", "kind", "recipient", "order_id as orderId", "payload"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow()
    .then((r) => ({ ...r, payload: JSON.parse(r.payload) as Record<string, unknown> }));
}

describeEachDatabase("'Avísame si vuelve'", (harness) => {
  it("a sold-out piece takes a request, double opt-in: the e-mail's signed link confirms it once; the notice links the piece", async () => {
    const database = await harness.fresh();
    const media = storage();
    const templates = restockEmailTemplates(database.db, () => shop, links, undefined, media);
    const { piece } = await soldOutPiece(database, 1);
    const now = new Date();
    const result = await askRestock(database.db, {
      productId: piece.id,
      email: " Ana@Example.MX ",
      consent: "si",
      siteUrl: SITE,
      from: from(),
      now,
    });
    expect(result).toMatchObject({ ok: true, outcome: "nueva" });
    const confirmation = await database.db
      .selectFrom("emails")
      .select("id")
      .where("kind", "=", RESTOCK_CONFIRM_EMAIL)
      .executeTakeFirstOrThrow();
    const message = await templates[RESTOCK_CONFIRM_EMAIL]?.(await queued(database, confirmation.id));
    if (!message) throw new Error("no confirmation rendered");
    expect(message.subject).toBe("Confirma tu aviso para Anillo Marea");
    const token = /\/avisame\/confirmar\?t=([A-Za-z0-9._-]+)/.exec(message.text)?.[1];
    // The token is the piece list's: the drop list's confirmation refuses it.
    expect(links.verify("confirmar", token)).toBeNull();
    const named = verifyListToken(links, "confirmar", token);
    expect(named).toEqual({ list: "pieza", id: result.ok ? result.subscriptionId : "" });
    expect(await confirmRestock(database.db, named?.id ?? "", now)).toEqual({
      ok: true,
      already: false,
      piece: { name: "Anillo Marea", href: `/drop/${piece.dropId}/product/${piece.id}` },
      now: null,
    });
    expect(await confirmRestock(database.db, named?.id ?? "", now)).toMatchObject({
      ok: true,
      already: true,
    });
    // Asking again while confirmed sends nothing more.
    const again = await askRestock(database.db, {
      productId: piece.id,
      email: "ana@example.mx",
      consent: "si",
      siteUrl: SITE,
      from: from(),
      now,
    });
    expect(again).toMatchObject({ ok: true, outcome: "ya_confirmada" });

    // A piece back on the shelf (as a hold released or a return puts it back).
    const shelf = (stock: number) =>
      database.db.updateTable("products").set({ stock }).where("id", "=", piece.id).execute();
    await shelf(1);
    await piecesCameBack(database.db, { productId: piece.id, count: 1 }, now);
    const notice = await database.db
      .selectFrom("emails")
      .select("id")
      .where("kind", "=", RESTOCK_EMAIL)
      .executeTakeFirstOrThrow();
    const back = await templates[RESTOCK_EMAIL]?.(await queued(database, notice.id));
    if (!back) throw new Error("no notice rendered");
    expect(back.subject).toBe("¡Anillo Marea volvió a estar disponible!");
    expect(back.text).toContain(`${SITE}/drop/${piece.dropId}/product/${piece.id}`);
    expect(back.html).toContain(`href="${SITE}/drop/${piece.dropId}/product/${piece.id}"`);
    expect(back.headers?.["List-Unsubscribe"]).toMatch(/\/avisame\/baja\?t=/);
    // Sold again before it went (the mail server down meanwhile): not sent untrue, and not retried.
    await shelf(0);
    expect(await templates[RESTOCK_EMAIL]?.(await queued(database, notice.id))).toBe(false);
  });

  it("confirmed once the piece is back on the shelf, or its drop closed, the link says so instead of promising a notice", async () => {
    const database = await harness.fresh();
    const { piece } = await soldOutPiece(database, 1);
    const now = new Date();
    const back = await waitFor(database, piece.id, "vuelta@example.mx", { now, confirm: false });
    const closing = await waitFor(database, piece.id, "cierre@example.mx", { now, confirm: false });
    await database.db.updateTable("products").set({ stock: 1 }).where("id", "=", piece.id).execute();
    expect(await confirmRestock(database.db, back, now)).toMatchObject({ ok: true, now: "disponible" });
    await database.db
      .updateTable("drops")
      .set({ end_at: toTimestamp(new Date(now.getTime() - 60_000)) })
      .where("id", "=", piece.dropId)
      .execute();
    expect(await confirmRestock(database.db, closing, now)).toMatchObject({ ok: true, now: "cerrada" });
  });

  it("refuses a piece that can be bought, a piece with sizes without one, and a drop that is not on sale", async () => {
    const database = await harness.fresh();
    const ask = (productId: string, optionId?: string) =>
      askRestock(database.db, {
        productId,
        optionId: optionId ?? null,
        email: "ana@example.mx",
        consent: "si",
        siteUrl: SITE,
        from: from(),
      });
    const inStock = await runningPiece(database, { stock: 2 });
    expect(await ask(inStock.id)).toEqual({ ok: false, reason: "pieza_disponible" });
    const ring = await runningPiece(database, { stock: 0, sizes: { "6": 0, "7": 2 } });
    expect(await ask(ring.id)).toEqual({ ok: false, reason: "sin_talla" });
    expect(await ask(ring.id, ring.sizes.get("7"))).toEqual({ ok: false, reason: "pieza_disponible" });
    expect(await ask(ring.id, ring.sizes.get("6"))).toMatchObject({ ok: true, outcome: "nueva" });
    expect(await ask(ring.id, inStock.id)).toEqual({ ok: false, reason: "pieza_no_encontrada" });
    for (const bad of ["\u0000", "x".repeat(300), ""]) {
      expect(await ask(bad)).toEqual({ ok: false, reason: "pieza_no_encontrada" });
    }
    const ended = await createDrop(database.db, {
      name: "Ayer",
      status: "activa",
      startAt: new Date(Date.now() - 2 * DAY),
      endAt: new Date(Date.now() - DAY),
      products: [
        {
          name: "Arete Ayer",
          categoria: "Arete",
          material: "Oro blanco",
          priceCents: 90_000,
          stock: 0,
          imageId: null,
        },
      ],
    });
    const gone = await database.db
      .selectFrom("products")
      .select("id")
      .where("drop_id", "=", ended)
      .executeTakeFirstOrThrow();
    expect(await ask(gone.id)).toEqual({ ok: false, reason: "drop_no_activo" });
    // Nobody waiting for an ended drop is told: its pieces no longer sell.
    expect(await piecesCameBack(database.db, { productId: gone.id, count: 3 })).toEqual({ notified: 0 });
  });

  it("a hold released tells as many confirmed addresses as pieces came back, oldest first, never the unconfirmed, never twice", async () => {
    const database = await harness.fresh();
    const { piece, order } = await soldOutPiece(database, 2);
    const start = Date.now() - 30 * MINUTE;
    await line(
      database,
      piece.id,
      ["ana@example.mx", "sin-confirmar@example.mx", "beto@example.mx", "caro@example.mx"],
      start,
    );

    expect(await releaseHold(database.db, order.id)).toBe(true);
    expect(await piece.stock()).toBe(2);
    expect(await told(database)).toEqual(["ana@example.mx", "beto@example.mx"]);
    // The same release again does nothing, and tells nobody.
    expect(await releaseHold(database.db, order.id)).toBe(false);
    expect(await told(database)).toHaveLength(2);

    // More pieces than people waiting: the one left confirmed is told, the unconfirmed never.
    expect(await piecesCameBack(database.db, { productId: piece.id, count: 5 })).toEqual({ notified: 1 });
    expect(await told(database)).toEqual(["ana@example.mx", "beto@example.mx", "caro@example.mx"]);
    expect(await piecesCameBack(database.db, { productId: piece.id, count: 5 })).toEqual({ notified: 0 });
    const requests = await database.db
      .selectFrom("restock_requests")
      .select(["email", "status", "notified_at"])
      .orderBy("created_at")
      .execute();
    expect(requests.map((r) => [r.email, r.status, r.notified_at !== null])).toEqual([
      ["ana@example.mx", "confirmada", true],
      ["sin-confirmar@example.mx", "pendiente", false],
      ["beto@example.mx", "confirmada", true],
      ["caro@example.mx", "confirmada", true],
    ]);
  });

  it("the drops desk shows, beside each size's stock, how many confirmed requests wait for it", async () => {
    const database = await harness.fresh();
    const ring = await runningPiece(database, { stock: 0, sizes: { "6": 0, "7": 0, "8": 0 } });
    const [six, seven, eight] = ["6", "7", "8"].map((v) => ring.sizes.get(v) ?? "");
    const start = Date.now() - 30 * MINUTE;
    await line(database, ring.id, ["a@example.mx", "sin-confirmar@example.mx", "b@example.mx"], start, seven);
    await line(database, ring.id, ["c@example.mx"], start, six);
    const gone = await waitFor(database, ring.id, "d@example.mx", { optionId: eight, now: new Date(start) });
    expect(await unsubscribeRestock(database.db, gone)).toMatchObject({ ok: true });
    const form = await dropForEdit(database.db, storage(), ring.dropId);
    const values = form?.products[0]?.options.map((v) => [v.value, v.waiting]);
    expect(values).toEqual([
      ["6", 1],
      ["7", 2],
      ["8", 0],
    ]);
    expect(form?.products[0]?.waiting).toBe(0);
    // One size-6 piece back: its one address is told, and nobody waits for that size any more.
    expect(await piecesCameBack(database.db, { productId: ring.id, optionId: six ?? "", count: 1 })).toEqual({
      notified: 1,
    });
    const after = await dropForEdit(database.db, storage(), ring.dropId);
    expect(after?.products[0]?.options.map((v) => v.waiting)).toEqual([0, 2, 0]);
  });

  it("a size's pieces tell the people waiting for that size only", async () => {
    const database = await harness.fresh();
    const ring = await runningPiece(database, { stock: 0, sizes: { "6": 1, "7": 1 } });
    const six = ring.sizes.get("6") ?? "";
    const seven = ring.sizes.get("7") ?? "";
    const order = await hold(database.db, {
      lines: [
        { productId: ring.id, dropId: ring.dropId, optionId: six, quantity: 1 },
        { productId: ring.id, dropId: ring.dropId, optionId: seven, quantity: 1 },
      ],
      provider: "demo",
    });
    const start = Date.now() - 30 * MINUTE;
    await line(database, ring.id, ["seis@example.mx", "seis-b@example.mx"], start, six);
    await line(database, ring.id, ["siete@example.mx", "siete-b@example.mx"], start + 10 * MINUTE, seven);
    expect(await releaseHold(database.db, order.id)).toBe(true);
    expect(await told(database)).toEqual(["seis@example.mx", "siete@example.mx"]);
    expect(await piecesCameBack(database.db, { productId: ring.id, optionId: seven, count: 1 })).toEqual({
      notified: 1,
    });
    expect(await told(database)).toContain("siete-b@example.mx");
    expect(await told(database)).not.toContain("seis-b@example.mx");
  });

  it("the owner adding stock in the drops desk tells as many confirmed addresses as pieces added", async () => {
    const database = await harness.fresh();
    const media = storage();
    const dropId = newId();
    const body = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#b08d57" } })
      .png()
      .toBuffer();
    const image = await storeImage(media, { dropId, body });
    await database.db.insertInto("media").values(image).execute();
    const [startDate, startTime] = shopDateTimeStamp(new Date(Date.now() - DAY)).split(" ");
    const [endDate, endTime] = shopDateTimeStamp(new Date(Date.now() + DAY)).split(" ");
    const input = dropInput.parse({
      id: dropId,
      name: "Mareas",
      startDate,
      startTime,
      endDate,
      endTime,
      products: [
        {
          name: "Collar Ola",
          price: "3200",
          categoria: "Collar",
          material: "Oro amarillo",
          imageId: image.id,
          stock: "0",
        },
      ],
    });
    expect(await createDropFromInput(database.db, media, input)).toEqual({ ok: true, id: dropId });
    await database.db.updateTable("drops").set({ status: "activa" }).where("id", "=", dropId).execute();
    expect(await publishDrop(database.db, dropId, null)).toEqual({ ok: true });
    const product = await database.db
      .selectFrom("products")
      .select("id")
      .where("drop_id", "=", dropId)
      .executeTakeFirstOrThrow();
    // Published just now (decision 38): the line forms from now on.
    const start = Date.now() + MINUTE;
    await line(
      database,
      product.id,
      ["sin-confirmar@example.mx", "ana@example.mx", "beto@example.mx", "caro@example.mx"],
      start,
    );

    /** The form as the owner opens it: how many wait beside the stock. */
    const waitingOnForm = async () => (await dropForEdit(database.db, media, dropId))?.products[0]?.waiting;
    // Three confirmed wait; the unconfirmed address is not counted.
    expect(await waitingOnForm()).toBe(3);
    const addStock = async (pieces: number) => {
      const form = await dropForEdit(database.db, media, dropId);
      if (!form) throw new Error("drop vanished");
      const [first] = form.products;
      if (!first) throw new Error("no product");
      const changed: DropFormValues = {
        ...form,
        products: [{ ...first, stock: String(Number(first.stock) + pieces) }],
      };
      const { image: main, video, products, ...drop } = changed;
      const saved = await updateDropFromInput(
        database.db,
        media,
        dropId,
        dropInput.parse({
          ...drop,
          imageId: main?.id ?? "",
          videoId: video?.id ?? "",
          products: products.map(({ image: photo, extras, ...p }) => ({
            ...p,
            imageId: photo?.id ?? "",
            imageAlt: photo?.alt ?? "",
            extraImageIds: extras.map((m) => m.id),
            extraImageAlts: extras.map((m) => m.alt),
          })),
        }),
      );
      expect(saved).toMatchObject({ ok: true });
    };
    await addStock(1);
    expect(await told(database)).toEqual(["ana@example.mx"]);
    expect(await waitingOnForm()).toBe(2);
    await addStock(2);
    expect(await told(database)).toEqual(["ana@example.mx", "beto@example.mx", "caro@example.mx"]);
    expect(await waitingOnForm()).toBe(0);
    // Nobody left confirmed: more stock tells nobody, and the unconfirmed address never hears.
    await addStock(1);
    expect(await told(database)).toHaveLength(3);
  });

  it("two restock notices for one piece that came back go to one address, not all", async () => {
    const database = await harness.fresh();
    // A second app server: its own pool on PostgreSQL. On SQLite every writer of the file takes
    // the same lock, so the racing calls share one handle.
    const second =
      harness.dialect === "postgres"
        ? await openDatabase({ kind: "postgres", url: harness.lastUrl() }, { poolMax: 10 })
        : database;
    try {
      const { piece, order } = await soldOutPiece(database, 1);
      const start = Date.now() - 30 * MINUTE;
      await line(
        database,
        piece.id,
        ["ana@example.mx", "beto@example.mx", "caro@example.mx", "dani@example.mx"],
        start,
      );

      // The hold's one piece released by two servers at once (the sweeper on both): one address.
      const releases = await Promise.all([
        releaseHold(database.db, order.id),
        releaseHold(second.db, order.id),
        releaseHold(database.db, order.id),
      ]);
      expect(releases.filter(Boolean)).toHaveLength(1);
      expect(await told(database)).toEqual(["ana@example.mx"]);

      // Two notices for the same returned piece (one event, told twice, on two servers, each in
      // its own transaction): one more address, not two.
      const back = { productId: piece.id, count: 1, cause: "devolucion:prueba" };
      const notices = await Promise.all([
        database.db.transaction().execute((trx) => piecesCameBack(trx, back)),
        second.db.transaction().execute((trx) => piecesCameBack(trx, back)),
        piecesCameBack(database.db, back),
      ]);
      expect(notices.reduce((sum, n) => sum + n.notified, 0)).toBe(1);
      expect(await told(database)).toEqual(["ana@example.mx", "beto@example.mx"]);

      // Two different pieces back at once: two addresses, each told once, in the line's order.
      await Promise.all([
        database.db.transaction().execute((trx) => piecesCameBack(trx, { productId: piece.id, count: 1 })),
        second.db.transaction().execute((trx) => piecesCameBack(trx, { productId: piece.id, count: 1 })),
      ]);
      expect(await told(database)).toEqual([
        "ana@example.mx",
        "beto@example.mx",
        "caro@example.mx",
        "dani@example.mx",
      ]);
    } finally {
      if (second !== database) await second.close();
    }
  });

  it("an unpaid checkout's hold that expires, swept by two servers at once, tells one address per piece", async () => {
    const database = await harness.fresh();
    const second =
      harness.dialect === "postgres"
        ? await openDatabase({ kind: "postgres", url: harness.lastUrl() }, { poolMax: 10 })
        : database;
    // The demo page's holds have no provider session: the sweeper releases them as they expire.
    const payments = { name: "stripe" } as PaymentProvider;
    try {
      const { piece, order } = await soldOutPiece(database, 1);
      const start = Date.now() - 30 * MINUTE;
      await line(database, piece.id, ["ana@example.mx", "beto@example.mx", "caro@example.mx"], start);
      const later = new Date(order.expiresAt.getTime() + MINUTE);
      const sweeps = await Promise.all([
        sweepExpiredHolds(database.db, payments, later),
        sweepExpiredHolds(second.db, payments, later),
      ]);
      expect(sweeps.reduce((sum, s) => sum + s.released, 0)).toBe(1);
      expect(await piece.stock()).toBe(1);
      expect(await told(database)).toEqual(["ana@example.mx"]);
    } finally {
      if (second !== database) await second.close();
    }
  });

  it("unsubscribing from a restock e-mail leaves every list of the shop, and a request left is never told", async () => {
    const database = await harness.fresh();
    const { piece } = await soldOutPiece(database, 1);
    const drop = await upcomingDrop(database);
    const joined = await signUp(database.db, {
      dropId: drop.id,
      email: "ana@example.mx",
      consent: "si",
      siteUrl: SITE,
      from: from(),
    });
    if (!joined.ok || joined.outcome === "limitada") throw new Error(JSON.stringify(joined));
    await confirmSubscription(database.db, joined.subscriptionId);
    const id = await waitFor(database, piece.id, "ana@example.mx", { now: new Date() });
    expect(await unsubscribeRestock(database.db, id)).toMatchObject({ ok: true, already: false });
    const lists = await database.db
      .selectFrom("waitlist_subscriptions")
      .select("status")
      .where("email", "=", "ana@example.mx")
      .execute();
    expect(lists).toEqual([{ status: "baja" }]);
    expect(await piecesCameBack(database.db, { productId: piece.id, count: 1 })).toEqual({ notified: 0 });
  });
});
