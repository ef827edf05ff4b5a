import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { shopBrowser, shopBrowsers } from "../support/browser";
import { runningPiece } from "../support/catalogue";
import { postgresHarness, sqliteHarness } from "../support/databases";
import { accessLines, LINE_WRITTEN } from "../support/log-lines";
import { type RunningServer, startServer } from "../support/server-process";

// Page-cache hits answered before Express (server/fast-path.ts): the same answer as the Express
// path, and everything that path would refuse or not take from the cache still goes to it.

vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-fast-path-"));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Marks answers written without Express with `X-Test-Front-Door: 1`. */
const MARKER = path.resolve(import.meta.dirname, "../support/front-door-marker.cjs");
const FRONT = "x-test-front-door";

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A request with node:http (bodies arrive as sent). `target` is written in the request line as
 * is: a path, or a whole address (absolute form), which the front door leaves to Express.
 */
function raw(
  origin: string,
  target: string,
  headers: Record<string, string> = {},
  method = "GET",
  body?: string,
): Promise<Raw> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path: target, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** A request written by hand on a socket (HTTP/1.0, a missing Host): the status line and headers. */
function rawSocket(origin: string, request: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    let out = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => {
      out += chunk;
    });
    socket.on("end", () => resolve(out.split("\r\n\r\n")[0] ?? ""));
    socket.on("error", reject);
  });
}

/**
 * Headers to compare: all but those that differ by the moment, by the request or by which path
 * answered. Express gives every answer an id; the front door, without LOG_REQUESTS, gives a stored
 * page none (no line would carry it: decision 12). Both checked here.
 */
function comparable(headers: http.IncomingHttpHeaders): http.IncomingHttpHeaders {
  const { date: _date, [FRONT]: front, "x-request-id": id, ...rest } = headers;
  if (front) expect(id).toBeUndefined();
  else expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return rest;
}

describe("the front door for page-cache hits", () => {
  let server: RunningServer;
  let pages: string[] = [];

  beforeAll(async () => {
    const harness = sqliteHarness(cleanups);
    const database = await harness.fresh();
    const piece = await runningPiece(database, { stock: 5, name: "Anillo Puerta" });
    const product = `/drop/${piece.dropId}/product/${piece.id}`;
    pages = [
      "/",
      "/_.data",
      "/colecciones",
      "/colecciones.data",
      `/coleccion/${piece.dropId}`,
      `/coleccion/${piece.dropId}?categoria=Anillo`,
      product,
      `${product}.data`,
      "/nosotros",
      "/sitemap.xml",
    ];
    server = await startServer({
      DATA_DIR: path.join(tmp, "data"),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
      // X-Forwarded-Proto: https makes requests secure (HSTS), as behind a load balancer.
      TRUST_PROXY: "true",
      NODE_OPTIONS: `--require ${MARKER}`,
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  /**
   * The same page through the front door and through Express (absolute form), both hits of the
   * same stored entry: retried if the entry expired between them, or was in its last 200 ms (the
   * front door then leaves the hit to Express, which starts the page's next render).
   */
  async function bothPaths(target: string, headers: Record<string, string>, method = "GET") {
    const absolute = `${server.url}${target}`;
    for (let attempt = 0; attempt < 10; attempt++) {
      await raw(server.url, target, headers, method);
      const front = await raw(server.url, target, headers, method);
      const express = await raw(server.url, absolute, headers, method);
      // The same stored entry on both sides: a renewal between them (a page's data holds its
      // moment) would differ by a byte. A third look after both tells.
      const after = await raw(server.url, target, headers, method);
      const hits = front.headers["x-cache"] === "HIT" && express.headers["x-cache"] === "HIT";
      const sameEntry =
        after.body.equals(front.body) && after.headers["content-length"] === front.headers["content-length"];
      if (hits && sameEntry && front.headers[FRONT] === "1") return { front, express };
      await sleep(50);
    }
    throw new Error(`${target}: no two hits in a row`);
  }

  it("answers hits with the very headers and body the Express path sends", async () => {
    const variants: Record<string, string>[] = [
      { "accept-encoding": "gzip, deflate, br" },
      { "accept-encoding": "gzip" },
      {},
      { "accept-encoding": "br;q=0, gzip;q=0" },
      { "accept-encoding": "gzip", "x-forwarded-proto": "https" },
      { "accept-encoding": "br", cookie: "navegador=abc; otra=1" },
    ];
    for (const page of pages) {
      for (const headers of variants) {
        const what = `${page} ${JSON.stringify(headers)}`;
        const { front, express } = await bothPaths(page, headers);
        expect(front.status, what).toBe(200);
        expect(front.headers[FRONT], what).toBe("1");
        expect(express.headers[FRONT], what).toBeUndefined();
        expect(comparable(front.headers), what).toEqual(comparable(express.headers));
        expect(front.body.equals(express.body), what).toBe(true);
        expect(Number(front.headers["content-length"]), what).toBe(front.body.length);
      }
    }
    // The details that matter, once: hashes instead of a nonce, HSTS only over HTTPS, the encoding.
    const { front } = await bothPaths("/colecciones", { "accept-encoding": "br" });
    expect(front.headers["content-security-policy"]).toMatch(/script-src 'self' 'sha256-/);
    expect(front.headers["content-security-policy"]).not.toContain("nonce");
    expect(front.headers["strict-transport-security"]).toBeUndefined();
    expect(front.headers["content-encoding"]).toBe("br");
    expect(front.headers["x-content-type-options"]).toBe("nosniff");
    expect(front.headers["permissions-policy"]).toContain("camera=()");
    const secure = await bothPaths("/colecciones", { "x-forwarded-proto": "https" });
    expect(secure.front.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    expect(secure.front.headers["content-encoding"]).toBeUndefined();
  });

  it("answers HEAD with the GET's headers and no body", async () => {
    const { front, express } = await bothPaths("/nosotros", { "accept-encoding": "gzip" }, "HEAD");
    expect(front.headers[FRONT]).toBe("1");
    expect(front.body.length).toBe(0);
    expect(comparable(front.headers)).toEqual(comparable(express.headers));
    const get = await raw(server.url, "/nosotros", { "accept-encoding": "gzip" });
    expect(front.headers["content-length"]).toBe(get.headers["content-length"]);
  });

  it("leaves to Express what it would refuse, bypass or render", async () => {
    const warm = async (target: string, headers: Record<string, string> = {}) => {
      await bothPaths(target, headers);
    };
    await warm("/colecciones");

    // A Host the edge refuses: the same Spanish 400 as before.
    const badHost = await raw(server.url, "/colecciones", { host: "no_es un host" });
    expect(badHost.status).toBe(400);
    expect(badHost.headers[FRONT]).toBeUndefined();
    expect(badHost.headers["cache-control"]).toBe("no-store");

    // HTTP/1.1 without a Host: refused by the edge.
    const noHost = await rawSocket(server.url, "GET /colecciones HTTP/1.1\r\nConnection: close\r\n\r\n");
    expect(noHost).toMatch(/^HTTP\/1\.1 400 /);
    expect(noHost.toLowerCase()).not.toContain(FRONT);

    // HTTP/1.0 without a Host stands for the shop's own address: Express answers it.
    await warm("/colecciones");
    const oldClient = await rawSocket(server.url, "GET /colecciones HTTP/1.0\r\n\r\n");
    expect(oldClient).toMatch(/^HTTP\/1\.1 200 /);
    expect(oldClient.toLowerCase()).not.toContain(FRONT);

    // The administrator's session: never from the cache.
    for (const name of ["sesion_admin", "__Host-sesion_admin"]) {
      await warm("/colecciones");
      const admin = await raw(server.url, "/colecciones", { cookie: `a=1; ${name}=x` });
      expect(admin.headers["x-cache"], name).toBe("BYPASS");
      expect(admin.headers[FRONT], name).toBeUndefined();
    }

    // Other methods go to the edge and the routes as before.
    await warm("/colecciones");
    const put = await raw(server.url, "/colecciones", {}, "PUT");
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe("GET, HEAD, POST");
    expect(put.headers[FRONT]).toBeUndefined();

    // A GET with a body (read and thrown away by Express), an Expect, a forwarded protocol that
    // is neither http nor https, an encoded address: Express, which may still answer from the cache.
    await warm("/colecciones");
    const withBody = await raw(
      server.url,
      "/colecciones",
      { "content-type": "text/plain", "content-length": "4" },
      "GET",
      "hola",
    );
    expect(withBody.status).toBe(200);
    expect(withBody.headers[FRONT]).toBeUndefined();
    const odd = await raw(server.url, "/colecciones", { "x-forwarded-proto": "ftp" });
    expect(odd.headers[FRONT]).toBeUndefined();
    const encoded = await raw(server.url, "/coleccione%73");
    expect(encoded.headers[FRONT]).toBeUndefined();
    const broken = await raw(server.url, "/coleccion/%E0%A4%A");
    expect(broken.status).toBe(400);
    expect(broken.headers[FRONT]).toBeUndefined();

    // A miss is always Express' (here: a new query, rendered once).
    const miss = await raw(server.url, `/colecciones?nuevo=${Date.now()}`);
    expect(miss.headers["x-cache"]).toBe("MISS");
    expect(miss.headers[FRONT]).toBeUndefined();
    // A page that is not cached at all.
    const login = await raw(server.url, "/login");
    expect(login.headers[FRONT]).toBeUndefined();
    expect(login.headers["content-security-policy"]).toMatch(/'nonce-[^']+'/);
  });
  // Last: it stops the server.
  it("says Connection: close on its answers while the server stops", async () => {
    const { port } = new URL(server.url);
    // Keep-alive requests whose headers are still arriving when the signal comes.
    const open = async (target: string) => {
      const socket = net.connect(Number(port), "127.0.0.1");
      const conn = { socket, answer: "", closed: new Promise<void>((r) => socket.on("close", () => r())) };
      socket.on("data", (chunk) => {
        conn.answer += chunk.toString("latin1");
      });
      await new Promise<void>((r) => socket.on("connect", () => r()));
      socket.write(`GET ${target} HTTP/1.1\r\nHost: tienda\r\nConnection: keep-alive\r\n`);
      return conn;
    };
    // A page of its own: the first request renders it, the second is a fresh hit.
    const target = `/colecciones?cierre=${Date.now()}`;
    const first = await open(target);
    const second = await open(target);
    await sleep(300);
    const exited = server.stop();
    await sleep(300);
    first.socket.write("\r\n");
    await first.closed;
    second.socket.write("\r\n");
    await second.closed;
    expect(first.answer).toMatch(/^HTTP\/1\.1 200/);
    expect(first.answer).toMatch(/\r\nX-Cache: MISS\r\n/i);
    expect(first.answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(second.answer).toMatch(/^HTTP\/1\.1 200/);
    expect(second.answer).toMatch(/\r\nX-Test-Front-Door: 1\r\n/i);
    expect(second.answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(await exited).toBe(0);
  });
});

describe("the front door in a cluster, with request logging", () => {
  let server: RunningServer;

  beforeAll(async () => {
    const harness = sqliteHarness(cleanups);
    const database = await harness.fresh();
    await runningPiece(database, { stock: 5 });
    server = await startServer({
      DATA_DIR: path.join(tmp, "cluster"),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
      WEB_CONCURRENCY: "2",
      LOG_REQUESTS: "true",
      NODE_OPTIONS: `--require ${MARKER}`,
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("says which worker answered, and logs its answers in the same format", async () => {
    const fronts: Raw[] = [];
    // Connections go to the workers in turn: enough requests reach a warm worker.
    for (let i = 0; i < 40 && fronts.length < 4; i++) {
      const res = await raw(server.url, "/nosotros", { "accept-encoding": "gzip" });
      expect(res.status).toBe(200);
      expect(res.headers["x-shop-worker"]).toMatch(/^[12]$/);
      if (res.headers[FRONT]) fronts.push(res);
    }
    expect(fronts.length).toBeGreaterThan(0);
    const length = Number(fronts[0]?.headers["content-length"]);
    // Access lines are written a fraction of a second after their answers (gathered in memory).
    const lines = await vi.waitFor(() => {
      const written = accessLines(server.output()).filter((line) => line.path === "/nosotros");
      for (const front of fronts)
        expect(written.some((line) => line.reqId === front.headers["x-request-id"])).toBe(true);
      return written;
    }, LINE_WRITTEN);
    // Every request is logged, the front door's as Express' (the same length for the same page),
    // each under the id its answer carries.
    expect(lines.length).toBeGreaterThanOrEqual(fronts.length);
    for (const line of lines) {
      expect(line).toMatchObject({ level: "info", method: "GET", status: 200, address: "127.0.0.1" });
      expect(line.bytes).toBeGreaterThan(0);
      expect(line.ms).toBeTypeOf("number");
    }
    for (const front of fronts) {
      const own = lines.filter((line) => line.reqId === front.headers["x-request-id"]);
      expect(own).toEqual([expect.objectContaining({ bytes: length })]);
    }
    expect(lines.filter((line) => line.bytes === length).length).toBeGreaterThanOrEqual(fronts.length);
  });
});

describe("the front door for checkouts of pieces that are gone", () => {
  let server: RunningServer;
  let soldOut: Awaited<ReturnType<typeof runningPiece>>;
  let lastOne: Awaited<ReturnType<typeof runningPiece>>;
  let another: Awaited<ReturnType<typeof runningPiece>>;

  beforeAll(async () => {
    const harness = sqliteHarness(cleanups);
    const database = await harness.fresh();
    soldOut = await runningPiece(database, { stock: 0, name: "Arete Vendido" });
    lastOne = await runningPiece(database, { stock: 1, name: "Anillo Último" });
    another = await runningPiece(database, { stock: 5, name: "Collar Libre" });
    server = await startServer({
      DATA_DIR: path.join(tmp, "checkout-data"),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
      // The drop-day limits on, as in production (the proof of work has its own tests).
      REQUEST_LIMITS: "true",
      NODE_OPTIONS: `--require ${MARKER}`,
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A browser's cookie, from the shop. */
  const newBrowser = () => shopBrowser(server.url);
  const cart = (piece: typeof soldOut) =>
    JSON.stringify({ cart: [{ product: { id: piece.id }, dropId: piece.dropId, quantity: 1 }] });
  const post = (body: string, headers: Record<string, string>, target = "/api/checkout") =>
    raw(
      server.url,
      target,
      { "content-type": "application/json", origin: server.url, ...headers },
      "POST",
      body,
    );

  it("refuses them before Express with the answer Express gives, counting nothing against the limits", async () => {
    const browser = await newBrowser();
    const front = await post(cart(soldOut), { cookie: browser });
    // The same request through Express (absolute form).
    const express = await post(cart(soldOut), { cookie: browser }, `${server.url}/api/checkout`);
    expect(front.headers[FRONT]).toBe("1");
    expect(express.headers[FRONT]).toBeUndefined();
    expect(front.status).toBe(409);
    expect(express.status).toBe(409);
    expect(front.body.toString()).toBe(express.body.toString());
    expect(JSON.parse(front.body.toString()).message).toContain("Arete Vendido");
    for (const header of [
      "content-type",
      "content-length",
      "cache-control",
      "x-content-type-options",
      "x-frame-options",
    ])
      expect(front.headers[header], header).toBe(express.headers[header]);
    // Pressing 'Pagar' on a sold-out piece again and again (past the 10 checkouts a minute a
    // browser may start) is answered each time, and leaves its allowance for a real hold intact.
    for (let i = 0; i < 15; i++) expect((await post(cart(soldOut), { cookie: browser })).status).toBe(409);
    const real = await post(cart(another), { cookie: browser });
    expect(real.status).toBe(200);
    expect(real.headers[FRONT]).toBeUndefined();
  });

  it("leaves to Express the last piece the browser holds itself: the back button from the payment page", async () => {
    const holder = await newBrowser();
    const first = await post(cart(lastOne), { cookie: holder });
    expect(first.status).toBe(200);
    // Another browser is told it is gone, at the front door.
    const other = await post(cart(lastOne), { cookie: await newBrowser() });
    expect(other.status).toBe(409);
    expect(other.headers[FRONT]).toBe("1");
    // The holder asks again for the same piece: sent back to the payment page it has, nothing renewed.
    const again = await post(cart(lastOne), { cookie: holder });
    expect(again.headers[FRONT]).toBeUndefined();
    expect(again.status).toBe(409);
    expect(JSON.parse(again.body.toString()).url).toBe(JSON.parse(first.body.toString()).url);
  });

  it("leaves anything unusual to Express", async () => {
    // A browser without its cookie gets one from Express, with the same refusal.
    const noCookie = await post(cart(soldOut), {});
    expect(noCookie.headers[FRONT]).toBeUndefined();
    expect(noCookie.status).toBe(409);
    expect(noCookie.headers["set-cookie"]?.join(";")).toContain("navegador=");
    // A cookie the shop did not sign is none: the same.
    for (const forged of ["navegador=puerta1xxxxxxxxxxxxxxxxx", `${await newBrowser()}x`]) {
      const refused = await post(cart(soldOut), { cookie: forged });
      expect(refused.headers[FRONT]).toBeUndefined();
      expect(refused.status).toBe(409);
      expect(refused.headers["set-cookie"]?.join(";")).toMatch(/navegador=[\w-]{22}\.[\w-]{43};/);
    }
    const malformed = await post("{", { cookie: await newBrowser() });
    expect(malformed.headers[FRONT]).toBeUndefined();
    expect(malformed.status).toBe(400);
    const elsewhere = await post(cart(soldOut), {
      cookie: await newBrowser(),
      origin: "https://otro.example",
    });
    expect(elsewhere.headers[FRONT]).toBeUndefined();
    expect(elsewhere.status).toBe(403);
    const text = await raw(
      server.url,
      "/api/checkout",
      { "content-type": "text/plain", cookie: await newBrowser() },
      "POST",
      cart(soldOut),
    );
    expect(text.headers[FRONT]).toBeUndefined();
    expect(text.status).toBe(415);
  });
});

// On PostgreSQL the reads go on while holds wait for a product's row: the rush's window.
const pgUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!pgUrl)("the front door in a rush for the last pieces [postgres]", () => {
  it("sends on to Express only as many as there are pieces; the rest are answered at the door", async () => {
    const harness = postgresHarness(pgUrl ?? "", cleanups);
    const database = await harness.fresh();
    const rushed = await runningPiece(database, { stock: 3, name: "Pulsera Prisa" });
    const server = await startServer({
      DATA_DIR: path.join(tmp, "rush-data"),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
      REQUEST_LIMITS: "true",
      NODE_OPTIONS: `--require ${MARKER}`,
    });
    cleanups.push(async () => {
      await server.stop();
    });
    const body = JSON.stringify({
      cart: [{ product: { id: rushed.id }, dropId: rushed.dropId, quantity: 1 }],
    });
    // The crowd got its cookies from the shop while watching the countdown.
    const cookies = await shopBrowsers(server.url, 80);
    const post = (i: number) =>
      raw(
        server.url,
        "/api/checkout",
        {
          "content-type": "application/json",
          origin: server.url,
          cookie: cookies[i] ?? "",
        },
        "POST",
        body,
      );
    // 80 shoppers press 'Pagar' at once for 3 pieces while no hold can be written yet (another
    // transaction has the product's row): each reads the 3 pieces as there. Three go on; the
    // others wait at the door, holding nothing, and read again once those holds are written.
    const writer = new pg.Client({ connectionString: harness.lastUrl() });
    await writer.connect();
    await writer.query("BEGIN");
    await writer.query("SELECT id FROM products WHERE id = $1 FOR UPDATE", [rushed.id]);
    const pending = Promise.all(Array.from({ length: 80 }, (_, i) => post(i)));
    await sleep(800);
    await writer.query("COMMIT");
    await writer.end();
    const answers = await pending;

    const held = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 409);
    expect(held).toHaveLength(3);
    expect(refused).toHaveLength(77);
    for (const a of refused) {
      expect(JSON.parse(a.body.toString()).message).toBe(
        "No hay piezas suficientes: Pulsera Prisa (agotado).",
      );
    }
    // Answered at the door: not by Express, its limits and a transaction queueing on the row.
    expect(refused.filter((a) => a.headers[FRONT] === "1")).toHaveLength(77);
    expect(await rushed.stock()).toBe(0);
  });
});
