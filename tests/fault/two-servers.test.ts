import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Database, openDatabase, toTimestamp } from "~/db/database.server";
import { demoPayment } from "../support/catalogue";
import { type RunningServer, startServer } from "../support/server-process";
import {
  expireAllHolds,
  inconsistencies,
  ledger,
  ordersByStatus,
  runningDrop,
  sqliteIntegrity,
  totals,
} from "./ledger";
import { type Answer, type CartLine, checkout, demoPage, orderIdOf } from "./shoppers";

/*
 * Two app servers (two `node server.js` processes) on one SQLite file, as when the embedded shop
 * is scaled to a second process on the same machine, plus a third writer: the administrator's
 * command (`npm run admin`) in a process of its own, and slow administrator saves from this test.
 * Shoppers split across both servers race for the last pieces of a drop, pay on the other server,
 * pay twice, cancel while paying. SQLite lets one writer at a time: everyone else must wait for
 * the lock (BEGIN IMMEDIATE and busy_timeout, app/db/database.server.ts), never fail with a 5xx.
 */

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

const root = path.resolve(import.meta.dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-two-servers-"));
const file = path.join(dir, "shop.db");
// No DATABASE_URL: both servers (and the admin command) find the same DATA_DIR/shop.db.
const env = { DATA_DIR: dir, DEMO_DATA: "false", DEMO_PAYMENTS: "true" };

describe("two app servers on one SQLite file", () => {
  let database: Database;
  let servers: RunningServer[] = [];

  beforeAll(async () => {
    // Both start at once on an empty folder: they create the file and migrate it together.
    servers = await Promise.all([startServer(env), startServer(env)]);
    database = await openDatabase({ kind: "sqlite", file });
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("shoppers on both servers race for the last pieces while the admin writes: no 5xx, no piece sold twice, every payment kept", async () => {
    const db = database.db;
    const { products } = await runningDrop(db, [
      { name: "Anillo Última Luna", stock: 6 },
      { name: "Collar Última Luna", stock: 4 },
      { name: "Arete Última Luna", stock: 3 },
    ]);
    const [ring, necklace, earring] = products;
    if (!ring || !necklace || !earring) throw new Error("fixture");
    const ids = products.map((p) => p.id);
    const start = await totals(db, ids);
    const line = (p: { id: string; dropId: string }, quantity: number): CartLine => ({
      product: { id: p.id },
      dropId: p.dropId,
      quantity,
    });
    const carts = [
      [line(ring, 1)],
      [line(necklace, 1), line(ring, 1)],
      [line(earring, 1)],
      [line(ring, 2)],
      [line(earring, 1), line(necklace, 1)],
    ];

    // Every answer any server gave, to look for a 5xx among them.
    const answers: { what: string; answer: Answer }[] = [];
    const record = async (what: string, request: Promise<Answer>) => {
      const answer = await request;
      answers.push({ what, answer });
      return answer;
    };
    /** Pay answers that told the shopper the payment went through. */
    const confirmed: string[] = [];
    const pay = async (server: RunningServer, orderId: string) => {
      const answer = await record(
        `pago ${orderId}`,
        demoPage(server.url, orderId, demoPayment(`Clienta ${orderId}`)),
      );
      if (answer.status === 302 && answer.location === "/success") confirmed.push(orderId);
    };
    const cancel = (server: RunningServer, orderId: string) =>
      record(`cancelación ${orderId}`, demoPage(server.url, orderId, { intent: "cancel" }));

    // What a shopper does with a hold, by turn: pay on the other server; pay on both at once (a
    // double click across two servers); cancel on one while paying on the other; cancel; walk away.
    let holdsTaken = 0;
    const shopper = async (n: number) => {
      const home = servers[n % 2] as RunningServer;
      const other = servers[(n + 1) % 2] as RunningServer;
      const answer = await record(`checkout ${n}`, checkout(home.url, carts[n % carts.length] ?? []));
      if (answer.status !== 200) return;
      const orderId = orderIdOf(answer);
      switch (holdsTaken++ % 5) {
        case 0:
          return pay(other, orderId);
        case 1:
          await Promise.all([pay(home, orderId), pay(other, orderId)]);
          return;
        case 2:
          await Promise.all([cancel(home, orderId), pay(other, orderId)]);
          return;
        case 3:
          await cancel(other, orderId);
          return;
        default:
          return; // the sweep (or the payment page) gives it back after its expiry
      }
    };

    // The third writer, here: the administrator saving the drop, each save holding the write lock
    // for a while; the first saves add a piece of the ring (a stock change is applied as a
    // difference, like the edit form does), the others only change its text.
    let writing = true;
    let raised = 0;
    let saves = 0;
    const adminSaves = (async () => {
      while (writing) {
        await db.transaction().execute(async (trx) => {
          const stamp = toTimestamp(new Date());
          await trx
            .updateTable("products")
            .set({ description: `Revisión ${saves}`, updated_at: stamp })
            .where("id", "=", earring.id)
            .execute();
          if (raised < 3) {
            await trx
              .updateTable("products")
              .set({ stock: sql`stock + 1`, updated_at: stamp })
              .where("id", "=", ring.id)
              .execute();
          }
          await new Promise((r) => setTimeout(r, 40));
        });
        if (raised < 3) raised++;
        saves++;
        await new Promise((r) => setTimeout(r, 30));
      }
    })();

    // And a writer in a process of its own: the admin command creating an administrator (at the
    // shop's full hashing cost, unlike the test servers': nobody signs in with it here).
    const admin = spawn(
      path.join(root, "node_modules/.bin/tsx"),
      ["scripts/admin.ts", "create", "duena@orodeluna.mx", "--name", "Dueña"],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          ENV_FILE: "",
          ...env,
          ADMIN_PASSWORD: "Anillo-de-Oro-Rosa-2026",
        },
      },
    );
    let adminOutput = "";
    admin.stdout.on("data", (c: Buffer) => {
      adminOutput += c.toString();
    });
    admin.stderr.on("data", (c: Buffer) => {
      adminOutput += c.toString();
    });
    const adminExit = new Promise<number | null>((resolve) => admin.on("exit", resolve));
    let adminDone = false;
    void adminExit.then(() => {
      adminDone = true;
    });

    // Shoppers keep arriving, a crowd and then four every 150 ms, for as long as the admin command runs (at least
    // 12 waves, at most 40): tens of requests, all of them while someone else writes.
    const shoppers: Promise<void>[] = [];
    let n = 0;
    for (let wave = 0; wave < 40 && (wave < 12 || !adminDone); wave++) {
      // The drop opens: the first wave is a crowd, the others a steady stream.
      for (let i = 0; i < (wave === 0 ? 20 : 4); i++) shoppers.push(shopper(n++));
      await new Promise((r) => setTimeout(r, 150));
    }
    await Promise.all(shoppers);
    writing = false;
    await adminSaves;
    expect(await adminExit, adminOutput).toBe(0);
    expect(adminOutput).toContain("Administrador creado: duena@orodeluna.mx");

    // No 5xx anywhere: checkouts hold (200) or are refused in Spanish (409); the payment page
    // answers every post with a redirect.
    const fivexx = answers.filter(({ answer }) => answer.status >= 500);
    expect(fivexx).toEqual([]);
    const checkouts = answers.filter(({ what }) => what.startsWith("checkout"));
    expect(checkouts).toHaveLength(n);
    for (const { what, answer } of checkouts) {
      if (answer.status === 409) expect(answer.body.message, what).toMatch(/^No hay piezas suficientes: /);
      else expect(answer.status, `${what}: ${answer.body.message}`).toBe(200);
    }
    // More shoppers than pieces: many were turned away while others held the last ones.
    expect(checkouts.filter(({ answer }) => answer.status === 409).length).toBeGreaterThanOrEqual(10);
    expect(holdsTaken).toBeGreaterThanOrEqual(5);
    for (const { what, answer } of answers.filter(({ what }) => !what.startsWith("checkout"))) {
      expect(answer.status, `${what}: ${answer.body.message}`).toBe(302);
    }

    // Every payment a shopper was told went through is a paid order, whichever server said so.
    const heldIds = checkouts
      .filter(({ answer }) => answer.status === 200)
      .map(({ answer }) => orderIdOf(answer));
    expect(new Set(heldIds).size).toBe(holdsTaken);
    const statuses = await ordersByStatus(db, heldIds);
    expect(statuses.pendiente ?? []).toEqual(expect.arrayContaining([...new Set(confirmed)]));
    // Never more pieces sold and held than there were: each piece is in stock, held or sold.
    expect(raised).toBe(3);
    expect(await totals(db, ids)).toEqual({ ...start, [ring.id]: (start[ring.id] ?? 0) + raised });
    expect(await inconsistencies(db)).toEqual([]);

    // The holds left are past their time: both servers' payment pages release them at once.
    await expireAllHolds(db);
    const waiting = (await ordersByStatus(db, heldIds)).esperando_pago ?? [];
    const pages = await Promise.all(
      waiting.flatMap((id) => servers.map((s) => fetch(`${s.url}/pago-demo/${id}`, { redirect: "manual" }))),
    );
    expect(pages.map((p) => p.status).filter((s) => s !== 200)).toEqual([]);
    const after = await ordersByStatus(db, heldIds);
    expect(after.esperando_pago).toBeUndefined();
    expect(after.pendiente).toEqual(statuses.pendiente);
    // Released once each, though two servers released them together: every piece is back.
    const pieces = await ledger(db, ids);
    for (const id of ids) {
      const p = pieces.get(id);
      expect(p?.held, id).toBe(0);
      expect((p?.stock ?? 0) + (p?.sold ?? 0), id).toBe((start[id] ?? 0) + (id === ring.id ? raised : 0));
    }
    expect(await inconsistencies(db, { now: new Date() })).toEqual([]);
    expect(sqliteIntegrity(file)).toEqual({ integrity: "ok", foreignKeys: [] });
    for (const server of servers) expect(server.output()).not.toMatch(/SQLITE_BUSY|database is locked/i);
  });
});
