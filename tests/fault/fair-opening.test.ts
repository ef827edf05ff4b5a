import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDrop, getDrop } from "~/catalogue/catalogue.server";
import { type LineStatus, nextLookIn } from "~/components/cart/checkout-client";
import { type Database, openDatabase } from "~/db/database.server";
import { CHEAP_PROOF_OF_WORK, solvedProof } from "../support/browser";
import { type RunningServer, startServer } from "../support/server-process";

/*
 * The attack on a drop's opening, replayed (decision 27): two app processes with the shop's
 * defaults, its request limits and its proof of work on (at a cheap difficulty, so that the run
 * does not spend minutes solving; the server checks each proof as always); a 'Máximo 1 por
 * persona' drop opens; one script from one address (then from ten) fires 100 checkouts 29 ms
 * after the opening, each from a browser of its own with a proof solved for it in advance (cookies
 * asked of the shop: as many as it likes), and 50 more with made-up cookies; among 40 shoppers
 * each from an address of its own, arriving 0.3–5 s after the opening. Loopback has a whole /8:
 * every client binds its own 127.x address.
 */

vi.setConfig({ testTimeout: 120_000, hookTimeout: 90_000 });

const SECOND = 1000;
const LOOK_MS = 500;

interface Answer {
  status: number;
  body: Record<string, unknown>;
  cookie: string | null;
}

function call(
  base: string,
  from: string,
  method: "GET" | "POST",
  pathname: string,
  options: { cookie?: string; body?: string; proof?: string } = {},
): Promise<Answer> {
  const url = new URL(pathname, base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        localAddress: from,
        agent: false,
        headers: {
          accept: "application/json",
          origin: base,
          ...(options.cookie ? { cookie: options.cookie } : {}),
          ...(options.proof ? { "x-altcha": options.proof } : {}),
          ...(options.body ? { "content-type": "application/json" } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: Record<string, unknown> = {};
          try {
            body = JSON.parse(text) as Record<string, unknown>;
          } catch {}
          const set = res.headers["set-cookie"]?.find((c) => c.startsWith("navegador="));
          resolve({ status: res.statusCode ?? 0, body, cookie: set ? (set.split(";")[0] ?? null) : null });
        });
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** One buyer's checkout and its waiting: when it was first answered, when it learned its outcome, and which. */
interface Outcome {
  who: "script" | "shopper";
  from: string;
  askedAt: number;
  firstAnswerMs: number;
  /** When it was first told something other than 'the draw is on': a payment page, gone, or waiting for held pieces. */
  toldAt: number | null;
  result: "pago" | "agotado" | "apartadas" | "rechazado";
}

async function buyer(
  base: string,
  who: Outcome["who"],
  from: string,
  browser: { cookie: string; proof: string },
  cart: string,
  until: number,
): Promise<Outcome> {
  const { cookie, proof } = browser;
  const askedAt = Date.now();
  const first = await call(base, from, "POST", "/api/checkout", { cookie, proof, body: cart });
  const outcome: Outcome = {
    who,
    from,
    askedAt,
    firstAnswerMs: Date.now() - askedAt,
    toldAt: null,
    result: "rechazado",
  };
  let view = first.body;
  if (first.status === 200) return { ...outcome, toldAt: Date.now(), result: "pago" };
  if (first.status !== 202) return { ...outcome, toldAt: Date.now() };
  const place = String(view.fila);
  while (Date.now() < until) {
    if (view.estado === "listo") return { ...outcome, toldAt: outcome.toldAt ?? Date.now(), result: "pago" };
    if (view.estado === "terminado")
      return { ...outcome, toldAt: outcome.toldAt ?? Date.now(), result: "agotado" };
    // Waiting for held pieces to come back: told, and nothing more to measure.
    if (view.estado === "esperando") return { ...outcome, toldAt: Date.now(), result: "apartadas" };
    // As the drawer does: every half second in line, and just after the draw ends.
    await new Promise((r) => setTimeout(r, nextLookIn(view as LineStatus, LOOK_MS)));
    view = (await call(base, from, "GET", `/api/fila/${place}`, { cookie })).body;
  }
  return outcome;
}

describe("a drop's opening against one script, on two app processes", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-fair-opening-"));
  let server: RunningServer;
  let database: Database;

  beforeAll(async () => {
    server = await startServer({
      DATA_DIR: dir,
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
      REQUEST_LIMITS: "true",
      CHECKOUT_CHALLENGE: "true",
      ...CHEAP_PROOF_OF_WORK,
      WEB_CONCURRENCY: "2",
    });
    database = await openDatabase({ kind: "sqlite", file: path.join(dir, "shop.db") });
  });
  afterAll(async () => {
    await server?.stop();
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A 'Máximo 1 por persona' drop with `stock` pieces of one ring, opening `inMs` from now with the shop's defaults. */
  async function dropOpeningIn(inMs: number, stock: number) {
    const startAt = new Date(Date.now() + inMs);
    const dropId = await createDrop(database.db, {
      name: `Apertura ${stock}`,
      status: "activa",
      startAt,
      endAt: new Date(startAt.getTime() + 24 * 3_600_000),
      maxPerOrder: 1,
      products: [
        {
          name: "Anillo Codiciado",
          categoria: "Anillo",
          material: "Oro amarillo",
          priceCents: 1_200_000,
          stock,
          imageId: null,
        },
      ],
    });
    const productId = (await getDrop(database.db, dropId))?.products[0]?.id ?? "";
    const cart = JSON.stringify({ cart: [{ product: { id: productId }, dropId, quantity: 1 }] });
    return { dropId, productId, startAt, cart };
  }

  /** A browser of the shop's (its signed cookie) with a proof of work solved for it, as a page has while the countdown runs. */
  const browserWithProof = () => solvedProof(server.url, null);

  async function replay(scriptAddresses: string[], stock: number) {
    const shopperAddresses = Array.from({ length: 40 }, (_, i) => `127.0.${stock}.${i + 10}`);
    const drop = await dropOpeningIn(4 * SECOND, stock);
    // Before the opening: every shopper's page has its cookie and a proof solved for it; the
    // script gathers 100 browsers with their proofs, and makes up 50 cookies besides (each sent
    // with one of its proofs: a proof is good for its own browser only).
    const shopperBrowsers = await Promise.all(shopperAddresses.map(() => browserWithProof()));
    const solved = await Promise.all(Array.from({ length: 100 }, () => browserWithProof()));
    const scriptBrowsers = [
      ...solved.map((b, i) => ({ ...b, from: scriptAddresses[i % scriptAddresses.length] ?? "" })),
      ...solved.slice(0, 50).map((b, i) => ({
        proof: b.proof,
        cookie: `navegador=${`guion${String(i).padStart(4, "0")}`.padEnd(22, "x")}`,
        from: scriptAddresses[i % scriptAddresses.length] ?? "",
      })),
    ];
    const opensAt = drop.startAt.getTime();
    const until = opensAt + 25 * SECOND;
    const wait = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
    await wait(opensAt);
    const script = (async () => {
      await wait(opensAt + 29);
      return Promise.all(scriptBrowsers.map((b) => buyer(server.url, "script", b.from, b, drop.cart, until)));
    })();
    const shoppers = Promise.all(
      shopperAddresses.map(async (from, i) => {
        await wait(opensAt + 300 + Math.random() * 4_700);
        return buyer(
          server.url,
          "shopper",
          from,
          shopperBrowsers[i] ?? { cookie: "", proof: "" },
          drop.cart,
          until,
        );
      }),
    );
    const outcomes = [...(await script), ...(await shoppers)];
    const held = await database.db
      .selectFrom("orders")
      .innerJoin("order_lines", "order_lines.order_id", "orders.id")
      .select(["orders.address_bucket", "order_lines.quantity"])
      .where("order_lines.drop_id", "=", drop.dropId)
      .where("orders.status", "=", "esperando_pago")
      .execute();
    const piecesOf = (addresses: string[]) =>
      held.filter((h) => addresses.includes(h.address_bucket ?? "")).reduce((s, h) => s + h.quantity, 0);
    const lotteryEnds = opensAt + 10 * SECOND;
    return {
      outcomes,
      script: piecesOf(scriptAddresses),
      shoppers: piecesOf(shopperAddresses),
      left: (await getDrop(database.db, drop.dropId))?.products[0]?.stock,
      lotteryEnds,
    };
  }

  function expectEveryShopperToldInTime(run: Awaited<ReturnType<typeof replay>>) {
    const shoppers = run.outcomes.filter((o) => o.who === "shopper");
    expect(shoppers).toHaveLength(40);
    for (const o of shoppers) {
      // Answered within a second of asking (a place in the draw), and told what became of it
      // within a second of the draw (a payment page, waiting for held pieces, or gone).
      expect(o.firstAnswerMs, o.from).toBeLessThan(SECOND);
      expect(o.toldAt, o.from).not.toBeNull();
      expect((o.toldAt ?? 0) - Math.max(o.askedAt, run.lotteryEnds), o.from).toBeLessThan(SECOND);
    }
  }

  // Both replays at once, on two drops (their addresses apart): the run takes one opening's time.
  it("the script ends with at most 2 pieces per address — of 10 from one address, of 30 from ten — the shoppers get the rest, each told within a second", async () => {
    const [one, ten] = await Promise.all([
      replay(["127.0.2.1"], 10),
      replay(
        Array.from({ length: 10 }, (_, i) => `127.0.3.${i + 1}`),
        30,
      ),
    ]);
    for (const [name, run] of [
      ["una dirección", one],
      ["diez direcciones", ten],
    ] as const) {
      const shoppers = run.outcomes.filter((o) => o.who === "shopper");
      const slowest = Math.max(
        ...shoppers.map((o) => (o.toldAt ?? Infinity) - Math.max(o.askedAt, run.lotteryEnds)),
      );
      console.log(
        `${name}: guion ${run.script} piezas, compradores ${run.shoppers}; primera respuesta más lenta ${Math.max(...shoppers.map((o) => o.firstAnswerMs))} ms, aviso más lento tras el sorteo ${slowest} ms`,
      );
    }
    // A made-up cookie is no browser: its proof (solved for another one) is refused, nothing waits.
    for (const run of [one, ten]) {
      const madeUp = run.outcomes.filter((o) => o.who === "script").slice(100);
      expect(madeUp.map((o) => o.result)).toEqual(Array(50).fill("rechazado"));
    }
    expect(one.script).toBeLessThanOrEqual(2);
    expect(one.shoppers).toBe(10 - one.script);
    expect(one.left).toBe(0);
    expectEveryShopperToldInTime(one);
    expect(ten.script).toBeLessThanOrEqual(20);
    expect(ten.shoppers).toBe(30 - ten.script);
    expect(ten.left).toBe(0);
    expectEveryShopperToldInTime(ten);
  });
});
