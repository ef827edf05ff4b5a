import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Database } from "~/db/database.server";
import { newId } from "~/lib/ids";
import { shipOrder } from "~/orders/desk.server";
import { confirmPayment } from "~/orders/payment.server";
import routeConfig from "~/routes";
import { signInAdmin } from "../support/admin-http";
import { oaxacaAddress, runningPiece } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { logLines } from "../support/log-lines";
import { hold } from "../support/orders";
import { type RunningServer, startServer } from "../support/server-process";

/*
 * A few hundred malformed requests across every route, with and without an administrator's
 * session: wrong methods, odd ids, wrong content types, broken JSON and forms, odd headers and
 * cookies. Every answer must be below 500 and, when it refuses, say so in Spanish; afterwards
 * the stock ledger is what it was and nothing was created, changed or deleted.
 *
 * The requests come from a seeded generator, a new seed each run: the seed is printed, and
 * FUZZ_SEED=<seed> repeats the same requests (only the ids of the test's own drops and orders
 * differ); FUZZ_COUNT=<n> sends more of them (600 by default, a few seconds per database).
 */

vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-fuzz-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const SEED = Number(process.env.FUZZ_SEED) || Math.floor(Math.random() * 2 ** 31);
const COUNT = Number(process.env.FUZZ_COUNT) || 600;
const CONCURRENCY = 4;

// ---------------------------------------------------------------------------------------------
// A small seeded generator (mulberry32): the same seed gives the same requests.

class Rng {
  constructor(private state: number) {}
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  /** An id-shaped string (16 of newId's letters) that is the same for the same seed. */
  id(length = 16): string {
    const letters = "abcdefghijkmnpqrstuvwxyz23456789";
    let out = "";
    for (let i = 0; i < length; i++) out += letters[this.int(0, letters.length - 1)];
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// Requests as bytes: no client library tidies up the address, the headers or the body.

interface Probe {
  method: string;
  /** The request target exactly as sent (already %-encoded, or deliberately not). */
  target: string;
  headers: [string, string][];
  body?: Buffer;
  /** Host header: the server's own unless a probe says otherwise (null: none). */
  host?: string | null;
  /** What is odd about it, for the failure report. */
  note: string;
  /** The route file it was made for (none for the edge's own probes). */
  route?: string;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function send(port: number, probe: Probe): Promise<Answer> {
  const host = probe.host === undefined ? `127.0.0.1:${port}` : probe.host;
  let head = `${probe.method} ${probe.target} HTTP/1.1\r\n`;
  if (host !== null) head += `Host: ${host}\r\n`;
  for (const [name, value] of probe.headers) head += `${name}: ${value}\r\n`;
  if (probe.body && !probe.headers.some(([n]) => /^(content-length|transfer-encoding)$/i.test(n))) {
    head += `Content-Length: ${probe.body.length}\r\n`;
  }
  head += "Connection: close\r\n\r\n";
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(Buffer.concat([Buffer.from(head, "utf8"), probe.body ?? Buffer.alloc(0)]));
    });
    const timer = setTimeout(() => socket.destroy(new Error("sin respuesta en 15 s")), 15_000);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(parseAnswer(Buffer.concat(chunks), probe.method));
    });
  });
}

function parseAnswer(raw: Buffer, method: string): Answer {
  let rest = raw;
  // Informational answers (100 Continue) come before the real one.
  for (;;) {
    const end = rest.indexOf("\r\n\r\n");
    if (end < 0) return { status: 0, headers: {}, body: rest.toString("utf8") };
    const head = rest.subarray(0, end).toString("latin1");
    const body = rest.subarray(end + 4);
    const status = Number(head.split(" ")[1]);
    if (status >= 100 && status < 200) {
      rest = body;
      continue;
    }
    const headers: Record<string, string> = {};
    for (const line of head.split("\r\n").slice(1)) {
      const colon = line.indexOf(":");
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}\n${value}`;
    }
    if (method === "HEAD") return { status, headers, body: "" };
    const chunked = /chunked/i.test(headers["transfer-encoding"] ?? "");
    return {
      status,
      headers,
      body: decompress(chunked ? dechunk(body) : body, headers["content-encoding"]).toString("utf8"),
    };
  }
}

/** Odd Accept-Encoding headers may still get a compressed answer: read it as the browser would. */
function decompress(body: Buffer, encoding: string | undefined): Buffer {
  try {
    if (encoding === "br") return zlib.brotliDecompressSync(body);
    if (encoding === "gzip") return zlib.gunzipSync(body);
    if (encoding === "deflate") return zlib.inflateSync(body);
  } catch {
    return Buffer.from(`(respuesta ${encoding} ilegible)`);
  }
  return body;
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    const lineEnd = body.indexOf("\r\n", at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(body.subarray(at, lineEnd).toString("latin1"), 16);
    if (!size) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

// ---------------------------------------------------------------------------------------------
// What every answer must be.

/** Texts of frameworks and servers (Express, React Router, Node) that must never reach a shopper. */
const ENGLISH =
  /Unexpected Server Error|Internal Server Error|Bad Request|Method Not Allowed|Not Found|Cannot (?:GET|POST|HEAD)|You made a|did not provide an|No route matches|no way to handle|Payload Too Large|Request Entity Too Large|Forbidden|Unauthorized|Expectation Failed|Too Many Requests|Unsupported Media Type|Invalid request|Unexpected token|is not valid JSON|\bat (?:async )?[\w.$<>]+ \(/;
/** The cookies the shop sets: the admin session, and the browser's id the request limits count by. */
const SHOP_COOKIE = /^(?:__Host-)?(?:sesion_admin|navegador)=/;
/** A message a person can read in Spanish: an accent, ¿ ¡, or a common Spanish word. */
const SPANISH =
  /[áéíóúñ¿¡]|\b(?:no|el|la|los|las|de|del|un|una|tu|su|es|se|por|para|con|que|solicitud|pedido|método)\b/i;

/**
 * Findings known and tolerated while their fix is under way, so they do not fail the fuzz
 * meanwhile. Each must be narrow: one route, one method, one kind of problem; a 5xx still fails.
 * None today.
 */
const KNOWN: { route: string; method: string; problem: RegExp }[] = [];
/** …and the stack trace React Router logs for it. */
const KNOWN_LOG: RegExp[] = [];

/**
 * What the server logged with a stack trace (its own fault, or a framework's complaint) while the
 * fuzz ran: a malformed request never deserves one. The log is JSON lines (a fault's `err` has its
 * stack); a line that is not JSON (something writing past the logger) is cut into entries at each
 * line that starts at the margin.
 */
function stackTraces(log: string): string[] {
  const entries: string[] = [];
  for (const line of logLines(log)) {
    if (!line.plain) entries.push(JSON.stringify(line, null, 1));
    else if (/^[^\s}\]]/.test(line.msg) || entries.length === 0) entries.push(line.msg);
    else entries[entries.length - 1] += `\n${line.msg}`;
  }
  return entries.filter((e) => /\n\s+at |\\n\s+at /.test(e) && !KNOWN_LOG.some((known) => known.test(e)));
}

function isKnown(probe: Probe, problem: string): boolean {
  return KNOWN.some((k) => k.route === probe.route && k.method === probe.method && k.problem.test(problem));
}

function problems(probe: Probe, answer: Answer): string[] {
  const found: string[] = [];
  const type = answer.headers["content-type"] ?? "";
  if (!(answer.status >= 200 && answer.status < 500)) {
    found.push(answer.status ? `estado ${answer.status}` : "sin respuesta HTTP");
  }
  const english = ENGLISH.exec(answer.body);
  if (english) found.push(`texto en inglés: «${english[0]}»`);
  // Nothing sent comes back as markup, as a cookie of its own or as a way to another site.
  // As markup: in a page, or in anything a browser might take for one. A JSON or React Router data
  // answer (a string inside JSON, read by the page's own code) marked nosniff is never rendered.
  const neverMarkup =
    (type.startsWith("application/json") || type.startsWith("text/x-script")) &&
    answer.headers["x-content-type-options"] === "nosniff";
  if (!neverMarkup && answer.body.includes("<script>alert(1)</script>")) {
    found.push("refleja <script> sin escapar");
  }
  if (answer.status === 405 && !answer.headers.allow) found.push("405 sin Allow");
  const location = answer.headers.location;
  if (location !== undefined && !/^\/(?![/\\])/.test(location))
    found.push(`redirige fuera: ${location.slice(0, 80)}`);
  for (const cookie of answer.headers["set-cookie"]?.split("\n") ?? []) {
    if (!SHOP_COOKIE.test(cookie)) found.push(`cookie inesperada: ${cookie.slice(0, 40)}`);
  }
  if (answer.status >= 400 && answer.status < 500 && probe.method !== "HEAD") {
    if (type.startsWith("application/json")) {
      let message: unknown;
      try {
        message = (JSON.parse(answer.body) as { message?: unknown }).message;
      } catch {
        message = undefined;
      }
      if (typeof message !== "string" || !SPANISH.test(message)) found.push("JSON sin `message` en español");
    } else if (type.startsWith("text/html")) {
      if (!answer.body.includes('lang="es-MX"')) found.push('página sin lang="es-MX"');
    } else if (type.startsWith("text/x-script")) {
      // React Router's data answer: its error travels inside; the English check above reads it.
      if (!answer.body) found.push("respuesta de datos vacía");
    } else if (type.startsWith("text/plain")) {
      if (!SPANISH.test(answer.body)) found.push("texto sin español");
    } else {
      found.push(`un ${answer.status} sin explicación (Content-Type: ${type || "ninguno"})`);
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// The shop's data the requests aim at, and the generators of odd inputs.

interface Fixtures {
  origin: string;
  cookie: string;
  drops: string[];
  products: { id: string; dropId: string }[];
  waitingOrder: string;
  paidOrder: string;
  shippedOrder: string;
  emailId: string;
}

/** %-encodes like encodeURIComponent; a lone surrogate becomes the bytes of one (not valid UTF-8). */
function enc(text: string): string {
  const lone = /([\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/;
  return text
    .split(lone)
    .map((part, i) => (i % 2 === 1 ? "%ED%A0%80" : encodeURIComponent(part)))
    .join("");
}

/** Path segments no route expects: too long, unicode, NUL, junk escapes, traversal, look-alikes. */
function oddSegment(r: Rng): string {
  return r.pick([
    () => "x".repeat(r.int(200, 3000)),
    () => "9".repeat(r.int(20, 400)),
    () => enc("ñandú💍"),
    () => "ñandú", // raw UTF-8 bytes in the request line
    () => enc("ａｂｃ\u202e\u200b"),
    () => "%00",
    () => `${r.id()}%00`,
    () => "a%00b",
    () => "%ff%fe%fd",
    () => "%C0%AF",
    () => "%25",
    () => "%E0%A4%A",
    () => "%",
    () => "%zz",
    () => "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    () => "..%2F..%2Fpackage.json",
    () => "../../package.json",
    () => "..%5c..%5cserver.js",
    () => "%0d%0aSet-Cookie:%20x=1",
    () => "%1b%5b31m",
    () => "%7f",
    () => enc("' OR 1=1 --"),
    () => enc('"><script>alert(1)</script>'),
    () => r.pick(["-1", "0", "1e309", "NaN", "null", "undefined", "__proto__", "constructor", "true"]),
    () => r.id(),
    () => r.id().toUpperCase(),
    () => `OL-${r.id(8).toUpperCase()}`,
    () => "OL-00000000",
    () => `${r.id()};x=1`,
    () => "%20",
    () => enc("x".repeat(20)).replace(/x/g, "%78"),
  ])();
}

/** A real id made odd, or an odd one. */
function someId(r: Rng, real: string): string {
  return r.pick([
    () => real,
    () => `${real}/`,
    () => `${real}.data`,
    () => notThe(r, real),
    () => notThe(r, real),
  ])();
}

/** An id close to a real one that can never reach it (unlike "id/" or "id.data", which do). */
function notThe(r: Rng, real: string): string {
  return r.pick([
    () => `${real}%00`,
    () => `${real}${enc("\u0301")}`,
    () => `${real}x`,
    () => real.slice(1),
    () => (real.startsWith("OL-") ? `ol-${real.slice(3)}` : real.toUpperCase()),
    () => oddSegment(r),
    () => oddSegment(r),
  ])();
}

function oddText(r: Rng): string {
  return r.pick([
    () => "",
    () => " ",
    () => "x".repeat(r.int(500, 120_000)),
    () => "ñ".repeat(r.int(100, 5000)),
    () => "a\u0000b",
    () => "\u0001\u0002\u0003",
    () => "línea\r\nSet-Cookie: x=1",
    () => "\u202emal\u202c",
    () => "💍".repeat(r.int(1, 300)),
    () => "%zz%",
    () => "<script>alert(1)</script>",
    () => "' OR 1=1 --",
    () => r.pick(["-1", "0", "1e309", "NaN", "Infinity", "-0", "0x10", "1.5", "١٢٣"]),
    () => "\ud800", // a lone surrogate
    () => "__proto__",
    () =>
      r.pick([
        "9999-12-31",
        "9999-12",
        "0000-01-01",
        "2024-02-30",
        "275760-09-13",
        "2031-01-01T25:61",
        "24:00",
      ]),
    () => r.pick(["99999999999999999999", "2147483648", "-2147483649", "1e-7", "0.1e1"]),
    () => r.pick(["\\", "a\\", "%", "_", "%_\\%"]),
  ])();
}

/** A query string of the route's own parameters (and others) with odd values; "" sometimes. */
function query(r: Rng, names: string[]): string {
  const parts: string[] = [];
  const n = r.int(0, 4);
  for (let i = 0; i < n; i++) {
    const name =
      names.length && r.chance(0.8)
        ? r.pick(names)
        : r.pick(["_routes", "index", "__proto__", "a[b]", "%zz", "x"]);
    // Kept well under Node's 16 KB of headers: past it every request is the same 431.
    const value = r.pick([
      () => enc(oddText(r)).slice(0, 3000),
      () => oddSegment(r),
      () => "",
      () => "%",
      () => "a%zzb",
    ])();
    parts.push(r.chance(0.1) ? name : `${name}=${value}`);
  }
  return parts.length ? `?${parts.join("&")}` : "";
}

// Bodies -------------------------------------------------------------------------------------

type Fields = [string, string][];

function urlencoded(fields: Fields): Buffer {
  return Buffer.from(fields.map(([k, v]) => `${enc(k)}=${enc(v)}`).join("&"));
}

function multipart(boundary: string, fields: Fields, file?: { name: string; type: string; bytes: Buffer }) {
  const parts: Buffer[] = [];
  for (const [k, v] of fields) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

/** A form sent some way: as a browser would, or with the wrong type, or broken on the way. */
function formBody(r: Rng, fields: Fields): { type: string; body: Buffer; how: string } {
  const boundary = `----fuzz${r.id(10)}`;
  return r.pick([
    () => ({ type: "application/x-www-form-urlencoded", body: urlencoded(fields), how: "urlencoded" }),
    () => ({ type: "application/x-www-form-urlencoded", body: urlencoded(fields), how: "urlencoded" }),
    () => ({
      type: `multipart/form-data; boundary=${boundary}`,
      body: multipart(boundary, fields),
      how: "multipart",
    }),
    () => {
      const whole = multipart(boundary, fields);
      return {
        type: `multipart/form-data; boundary=${boundary}`,
        body: whole.subarray(0, r.int(0, whole.length - 1)),
        how: "multipart cortado",
      };
    },
    () => ({ type: "multipart/form-data", body: multipart(boundary, fields), how: "multipart sin boundary" }),
    () => ({
      type: `multipart/form-data; boundary=${boundary}`,
      body: multipart(`otro${boundary}`, fields),
      how: "multipart con otro boundary",
    }),
    () => ({ type: "text/plain", body: urlencoded(fields), how: "form como text/plain" }),
    () => ({
      type: "application/json",
      body: Buffer.from(JSON.stringify(Object.fromEntries(fields))),
      how: "form como JSON",
    }),
    () => ({
      type: "application/x-www-form-urlencoded",
      body: Buffer.from("a=%zz&%=b&&=&c"),
      how: "escapes rotos",
    }),
    () => ({
      type: "application/x-www-form-urlencoded",
      body: Buffer.from([0xff, 0xfe, 0x00, 0x3d, 0x80]),
      how: "bytes no UTF-8",
    }),
    () => ({
      type: r.pick(["multipart/form-data; boundary=", `multipart/form-data; boundary=${"b".repeat(200)}`]),
      body: multipart(boundary, fields),
      how: "boundary vacío o enorme",
    }),
    () => ({
      type: r.pick(["", "application/xml", "image/png", ";;;", "x".repeat(300)]),
      body: urlencoded(fields),
      how: "tipo raro",
    }),
  ])();
}

/** Neutral noise added after the fields a form needs: duplicates (the first value wins), junk fields. */
function noise(r: Rng, fields: Fields): Fields {
  const out = [...fields];
  const n = r.int(0, 3);
  for (let i = 0; i < n; i++) {
    r.pick([
      () => {
        const [name] = r.pick(fields.length ? fields : [["x", ""] as [string, string]]);
        out.push([name, oddText(r)]);
      },
      () =>
        out.push([
          r.pick([
            "__proto__",
            "constructor",
            "products[999].name",
            "products[-1].name",
            "products[].name",
            "a[b][c]",
            "",
          ]),
          oddText(r),
        ]),
      () => out.push([oddText(r).slice(0, 300), "x"]),
      () => {
        for (let k = 0; k < 500; k++) out.push([`campo${k}`, "x"]);
      },
    ])();
  }
  return out;
}

/** JSON bodies for the checkout: broken, or of the wrong shape, never a cart that could be bought. */
function checkoutJson(r: Rng, fx: Fixtures): string {
  const product = r.pick(fx.products);
  const line = (quantity: unknown, overrides: Record<string, unknown> = {}) => ({
    product: { id: product.id, name: "Anillo", price: 1 },
    dropId: product.dropId,
    quantity,
    ...overrides,
  });
  const badQuantity = () =>
    r.pick([-1, 0, 1.5, "1", "2", 1e308, 2 ** 31, 2 ** 53, null, true, [], {}, -0.5, 100_000, "NaN"]);
  const whole = r.pick([
    () => "",
    () => "{",
    () => '{"cart":[{"product":{"id":"',
    () => JSON.stringify({ cart: [line(1)] }).slice(0, r.int(1, 40)),
    () => "nul",
    () => "[1,2",
    () => "\u0000",
    () => '{"cart": NaN}',
    () => "'cart'",
    () => `${"[".repeat(5000)}${"]".repeat(5000)}`,
    () => JSON.stringify(null),
    () => JSON.stringify([]),
    () => JSON.stringify([line(1)]),
    () => JSON.stringify(0),
    () => JSON.stringify("cart"),
    () => JSON.stringify({}),
    () => JSON.stringify({ cart: null }),
    () => JSON.stringify({ cart: {} }),
    () => JSON.stringify({ cart: [] }),
    () => JSON.stringify({ cart: [null] }),
    () => JSON.stringify({ cart: "[]" }),
    () => JSON.stringify({ cart: [line(badQuantity())] }),
    () => JSON.stringify({ cart: [line(badQuantity()), line(badQuantity())] }),
    () => JSON.stringify({ cart: [line(1, { product: { id: oddText(r) } })] }),
    () => JSON.stringify({ cart: [line(1, { product: null })] }),
    () => JSON.stringify({ cart: [line(1, { dropId: oddText(r) })] }),
    () => JSON.stringify({ cart: [line(1, { dropId: 12 })] }),
    () => JSON.stringify({ cart: [line(1, { product: { id: r.id() } })] }),
    () => JSON.stringify({ cart: [line(9999)] }),
    () => JSON.stringify({ cart: Array.from({ length: r.int(51, 400) }, () => line(badQuantity())) }),
    () =>
      JSON.stringify({
        cart: [
          line(1, {
            product: { id: product.id },
            dropId: r.pick(fx.drops.filter((d) => d !== product.dropId)) ?? r.id(),
          }),
        ],
      }),
    () => `{"__proto__":{"polluted":true},"cart":[${JSON.stringify(line("1"))}]}`,
    () => `{"cart":[${JSON.stringify(line(-5))}],"cart":[]}`,
  ])();
  return whole;
}

// Probes by route ----------------------------------------------------------------------------

/** Methods: mostly the ones the shop takes, sometimes others and odd spellings. */
function method(r: Rng, usual: "GET" | "POST"): string {
  if (r.chance(0.6)) return usual;
  return r.pick([
    "GET",
    "GET",
    "POST",
    "POST",
    "HEAD",
    "PUT",
    "DELETE",
    "PATCH",
    "OPTIONS",
    "get",
    "FROB",
    "CONNECT",
  ]);
}

const ACCEPTS = [
  "text/html",
  "application/json",
  "*/*",
  "",
  "text/html;q=0, application/json;q=0",
  "image/png",
  "application/json, text/html;q=0.1",
  ";;;,,,;q=abc",
  "text/*;q=2",
  "x".repeat(4000),
  "text/x-script",
];

/** Headers any request may carry: odd Accept, cookies, forwarding headers, encodings, user agents. */
function headerNoise(
  r: Rng,
  fx: Fixtures,
  session: boolean,
): { headers: [string, string][]; note: string[] } {
  const headers: [string, string][] = [];
  const note: string[] = [];
  if (r.chance(0.7)) {
    const accept = r.pick(ACCEPTS);
    headers.push(["Accept", accept]);
    if (accept !== "text/html") note.push(`Accept ${JSON.stringify(accept.slice(0, 30))}`);
  }
  if (session) {
    headers.push(["Cookie", r.chance(0.8) ? fx.cookie : `a=1; ${fx.cookie}; =; b`]);
  } else if (r.chance(0.5)) {
    const [name, value] = fx.cookie.split("=") as [string, string];
    const cookie = r.pick([
      () => `${name}=garbage`,
      () => `${name}=`,
      () => `${name}=%ff%fe%zz`,
      () => `${name}=${value.slice(0, -3)}abc`,
      () => `${name}=${value.replace(/\./g, "")}`,
      () => `${name}=${"a".repeat(r.int(100, 6000))}`,
      () => `${name}=x; ${name}=y`,
      () => `=;=;;${name}`,
      () => `${name}="${"\u00ff".repeat(10)}"`,
      () => Array.from({ length: 200 }, (_, i) => `c${i}=${i}`).join("; "),
    ])();
    headers.push(["Cookie", cookie]);
    note.push(`Cookie ${JSON.stringify(cookie.slice(0, 40))}`);
  }
  if (r.chance(0.15)) {
    const extra = r.pick<[string, string]>([
      ["X-Forwarded-For", "999.999.999.999, junk"],
      ["X-Forwarded-Proto", "gopher"],
      ["X-Forwarded-Host", "evil.example"],
      ["Accept-Encoding", "gzip;q=abc, br;;, *"],
      ["Accept-Language", "x".repeat(2000)],
      ["User-Agent", "Googlebot/2.1 (+http://www.google.com/bot.html)"],
      ["User-Agent", "\u00ff\u00fe"],
      ["Range", "bytes=junk"],
      ["If-None-Match", '"junk", W/"'],
      ["If-Modified-Since", "yesterday"],
      ["Sec-Fetch-Site", "cross-site"],
      ["Sec-Fetch-Mode", "navigate"],
      ["X-Junk", "y".repeat(r.int(1000, 12_000))],
      ["Expect", "100-continue"],
      ["Expect", "something-else"],
      ["Content-Encoding", "gzip"],
    ]);
    headers.push(extra);
    note.push(`${extra[0]}: ${JSON.stringify(extra[1].slice(0, 30))}`);
  }
  return { headers, note };
}

interface Draft {
  method: string;
  target: string;
  body?: { type: string; body: Buffer; how: string };
  headers?: [string, string][];
  /** Whether the request may carry the administrator's session. */
  session?: boolean;
  /**
   * Whether a POST may say it comes from the shop (Origin or Sec-Fetch-Site): off for the
   * requests that would succeed if they did (signing out).
   */
  sameOrigin?: boolean;
  note?: string;
}

/** How a POST says where it comes from. */
function originHeaders(r: Rng, fx: Fixtures, allowOwn: boolean): [string, string][] {
  const own: [string, string][][] = [[["Origin", fx.origin]], [["Sec-Fetch-Site", "same-origin"]]];
  const other: [string, string][][] = [
    [],
    [["Origin", "null"]],
    [["Origin", "https://evil.example"]],
    [["Origin", fx.origin.replace("127.0.0.1", "localhost")]],
    [["Origin", "%zz"]],
    [["Sec-Fetch-Site", "cross-site"]],
  ];
  return allowOwn && r.chance(0.75) ? r.pick(own) : r.pick(other);
}

/** `.data` (React Router's data request) added to a page's address, sometimes with junk `_routes`. */
function dataUrl(r: Rng, pathname: string): string {
  // Trailing-slash-aware data requests (react-router.config.ts): "/" is asked for as "/_.data".
  const base = pathname.endsWith("/")
    ? `${pathname}_.data`
    : r.chance(0.05)
      ? "/_root.data"
      : `${pathname}.data`;
  return r.chance(0.3)
    ? `${base}?_routes=${enc(r.pick(["root", "routes/home,root", "x".repeat(500), "%zz", ""]))}`
    : base;
}

type Generator = (r: Rng, fx: Fixtures) => Draft;

/** A page (GET) that takes no form: posts and odd addresses, `.data` included. */
function page(paths: (r: Rng, fx: Fixtures) => string, queryNames: string[] = []): Generator {
  return (r, fx) => {
    const pathname = paths(r, fx);
    const target = r.chance(0.3) ? dataUrl(r, pathname) : `${pathname}${query(r, queryNames)}`;
    const m = method(r, "GET");
    return {
      method: m,
      target,
      body: m === "POST" || r.chance(0.05) ? formBody(r, noise(r, [["intent", oddText(r)]])) : undefined,
      session: r.chance(0.3),
    };
  };
}

/** A resource route (JSON, XML, text): GET with odd queries, posts it does not take. */
function resource(pathname: string, queryNames: string[] = []): Generator {
  return (r) => {
    const m = method(r, "GET");
    return {
      method: m,
      target: r.chance(0.15) ? dataUrl(r, pathname) : `${pathname}${query(r, queryNames)}`,
      body: m === "POST" ? formBody(r, noise(r, [["id", oddText(r)]])) : undefined,
    };
  };
}

/** An admin page: with or without the session, odd ids and queries, posts it does not take. */
function adminPage(paths: (r: Rng, fx: Fixtures) => string, queryNames: string[] = []): Generator {
  return (r, fx) => {
    const pathname = paths(r, fx);
    const m = method(r, "GET");
    return {
      method: m,
      target: r.chance(0.25) ? dataUrl(r, pathname) : `${pathname}${query(r, queryNames)}`,
      body:
        m === "POST"
          ? formBody(r, noise(r, [["intent", r.pick(["eliminar", "archivar", oddText(r)])]]))
          : undefined,
      session: r.chance(0.6),
    };
  };
}

const PAYMENT_FIELDS: Fields = [
  ["name", "Renata Quiroga"],
  ["email", "renata@example.com"],
  ["phone", "951 123 4567"],
  ["line1", "Calle Macedonio Alcalá 401"],
  ["line2", "Centro"],
  ["postalCode", "68000"],
  ["city", "Oaxaca de Juárez"],
  ["state", "Oaxaca"],
];

/**
 * Replaces one field's value (or drops it) so that the form is refused. The broken field goes
 * first: a duplicate added later does not win (the first value does), and a body cut short loses
 * the fields after it, never it.
 */
function breakField(r: Rng, fields: Fields, name: string, bad: string[]): Fields {
  const value = r.pick([...bad, "\u0000", "a\u0007b", "x".repeat(r.int(1000, 50_000)), "__DROP__"]);
  const rest = fields.filter(([k]) => k !== name);
  return value === "__DROP__" ? rest : [[name, value], ...rest];
}

function dropForm(r: Rng, id: string | null, version: string | null): Fields {
  const fields: Fields = [
    ["id", id ?? r.id()],
    ["name", "Mareas de fuzz"],
    ["startDate", "2031-01-01"],
    ["startTime", "10:00"],
    ["endDate", "2031-02-01"],
    ["endTime", "20:00"],
    ["smallDescription", "Corta"],
    ["products[0].name", "Anillo"],
    ["products[0].price", "1200.00"],
    ["products[0].stock", "3"],
    ["products[0].categoria", "Anillo"],
    ["products[0].material", "Oro rosa"],
    ["products[0].imageId", r.id()],
  ];
  if (version) fields.push(["version", version]);
  // One change the schema refuses, so the form can never be saved.
  const broken = r.pick<[string, string[]]>([
    ["name", [""]],
    ["startDate", ["2031-13-45", "mañana", "0000-00-00", "2031-02-30"]],
    ["endDate", ["2030-12-31", "1e309"]],
    ["products[0].price", ["-5", "0", "1e309", "abc", "99999999999"]],
    ["products[0].stock", ["-1", "1.5", "1e3", "10001", "٣"]],
    ["products[0].categoria", ["Pulsera'; DROP TABLE drops; --", "anillo"]],
    ["products[0].material", ["Plata"]],
    ["products[0].imageId", ["", "../../etc/passwd"]],
    ["products[0].stockLoaded", ["9999999999", "-3"]],
    ["status", ["borrada", "ACTIVA!"]],
    ...(id === null ? ([["id", ["", "../x", "ABCDEFGHIJKLMNOP"]]] as [string, string[]][]) : []),
    ...(version ? ([["version", ["ayer", "2031-01-01"]]] as [string, string[]][]) : []),
  ]);
  return breakField(r, fields, broken[0], broken[1]);
}

function shipmentForm(r: Rng, intent: string): Fields {
  const fields: Fields = [
    ["intent", intent],
    ["carrier", "Estafeta"],
    ["trackingNumber", "EST-0001"],
  ];
  const broken = r.pick<[string, string[]]>([
    ["carrier", ["", "Correos del Norte", "Otra"]],
    ["trackingNumber", ["", "ab", "<script>", "x".repeat(61)]],
  ]);
  return breakField(r, fields, broken[0], broken[1]);
}

const TINY_PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

/** An 'Avísame' sign-up posted to a drop's page with a broken address or consent. */
function waitlistSignUp(paths: (r: Rng, fx: Fixtures) => string): Generator {
  return (r, fx) => {
    const fields: Fields = [
      ["correo", "ana@example.mx"],
      ["consentimiento", "si"],
    ];
    const broken = r.pick<[string, string[]]>([
      ["correo", ["", "ana@", "@example.mx", "ana@example", "a b@c.mx", oddText(r)]],
      ["consentimiento", ["", oddText(r)]],
    ]);
    const pathname = paths(r, fx);
    return {
      method: "POST",
      target: r.chance(0.5) ? `${pathname}.data` : pathname,
      body: formBody(r, noise(r, breakField(r, fields, broken[0], broken[1]))),
    };
  };
}

/** 'Avísame si vuelve' posted to a product page: a broken size, address or consent. */
function restockRequest(paths: (r: Rng, fx: Fixtures) => string): Generator {
  return (r, fx) => {
    const fields: Fields = [
      ["aviso", "pieza"],
      ["talla", r.chance(0.5) ? "" : r.id()],
      ["correo", "ana@example.mx"],
      ["consentimiento", "si"],
    ];
    const broken = r.pick<[string, string[]]>([
      ["talla", ["\u0000", "x".repeat(300), "../../etc/passwd", oddText(r)]],
      ["aviso", ["", "drop", oddText(r)]],
      ["correo", ["", "ana@", oddText(r)]],
      ["consentimiento", ["", oddText(r)]],
    ]);
    const pathname = paths(r, fx);
    return {
      method: "POST",
      target: r.chance(0.5) ? `${pathname}.data` : pathname,
      body: formBody(r, noise(r, breakField(r, fields, broken[0], broken[1]))),
    };
  };
}

/** Every route of app/routes.ts (by its file) and how to make requests it does not expect. */
const GENERATORS: Record<string, Generator[]> = {
  "routes/home.tsx": [page((r) => r.pick(["/", "/?index", "//", "/index.html"]), ["index", "q"])],
  "routes/collections.tsx": [page(() => "/colecciones", ["anio", "page"])],
  "routes/collection.tsx": [
    page(
      (r, fx) => `/coleccion/${someId(r, r.pick(fx.drops))}`,
      ["categoria", "material", "precio", "disponibles"],
    ),
    waitlistSignUp((r, fx) => `/coleccion/${someId(r, r.pick(fx.drops))}`),
  ],
  "routes/product.tsx": [
    page(
      (r, fx) => {
        const p = r.pick(fx.products);
        return r.chance(0.5)
          ? `/drop/${someId(r, p.dropId)}/product/${someId(r, p.id)}`
          : `/drop/${p.dropId}/product/${someId(r, r.pick(fx.products).id)}`;
      },
      ["cantidad"],
    ),
    waitlistSignUp((r, fx) => {
      const p = r.pick(fx.products);
      return `/drop/${p.dropId}/product/${someId(r, p.id)}`;
    }),
    restockRequest((r, fx) => {
      const p = r.pick(fx.products);
      return `/drop/${p.dropId}/product/${someId(r, p.id)}`;
    }),
  ],
  "routes/waitlist-confirm.tsx": [page(() => "/avisame/confirmar", ["t"])],
  "routes/waitlist-unsubscribe.tsx": [
    page(() => "/avisame/baja", ["t"]),
    (r) => ({
      method: "POST",
      target: `/avisame/baja${query(r, ["t"])}`,
      body: formBody(r, noise(r, [["t", r.pick(["", `${r.id()}.${oddText(r)}`, oddText(r)])]])),
    }),
  ],
  "routes/about.tsx": [page(() => "/nosotros")],
  "routes/legal.tsx": [
    page((r) =>
      r.pick(["/aviso-de-privacidad", "/envios", "/cambios-y-devoluciones", "/terminos-y-condiciones"]),
    ),
  ],
  "routes/success.tsx": [page(() => "/success", ["session_id", "pedido", "firma"])],
  // 'Mi pedido': the look-up form with numbers and e-mails of every shape; pages of real and made-up
  // orders under signatures of every shape.
  "routes/order-lookup.tsx": [
    page(() => "/mi-pedido"),
    (r, fx) => ({
      method: "POST",
      target: r.chance(0.3) ? "/mi-pedido.data" : "/mi-pedido",
      body: formBody(
        r,
        noise(r, [
          ["number", r.pick([fx.paidOrder, `OL-${r.id(8).toUpperCase()}`, oddSegment(r), oddText(r), ""])],
          ["email", r.pick(["ana@example.mx", oddText(r), "", `${oddText(r)}@x`])],
        ]),
      ),
    }),
  ],
  "routes/order-page.tsx": [
    page(
      (r, fx) =>
        `/mi-pedido/${r.pick([fx.paidOrder, fx.shippedOrder, oddSegment(r), `OL-${r.id(8).toUpperCase()}`])}`,
      ["firma"],
    ),
  ],
  // Returns: the request form of real and made-up orders under signatures of every shape, posted
  // with pieces, reasons and words of every shape.
  "routes/order-return.tsx": [
    (r, fx) => {
      const pathname = `/mi-pedido/${r.pick([fx.paidOrder, fx.shippedOrder, oddSegment(r), `OL-${r.id(8).toUpperCase()}`])}/devolucion`;
      const m = method(r, "POST");
      return {
        method: m,
        target: r.chance(0.2) ? dataUrl(r, pathname) : `${pathname}${query(r, ["firma"])}`,
        body:
          m === "POST"
            ? formBody(
                r,
                noise(r, [
                  [
                    `pieza-${r.pick(["0", "1", "99", "-1", oddText(r)])}`,
                    r.pick(["1", "0", "-3", "1e9", oddText(r)]),
                  ],
                  ["motivo", r.pick(["talla", "otro", "", oddText(r)])],
                  ["comentario", r.pick(["", "No me quedó", oddText(r), "x".repeat(3000)])],
                ]),
              )
            : undefined,
        session: r.chance(0.2),
      };
    },
  ],
  // 'Requiero factura': the page and its form under signatures of every shape (never the order's
  // own, so nothing is recorded), with RFCs, régimenes and postal codes of every shape.
  "routes/invoice-request.tsx": [
    page(
      (r, fx) =>
        `/mi-pedido/${r.pick([fx.paidOrder, fx.shippedOrder, oddSegment(r), `OL-${r.id(8).toUpperCase()}`])}/factura`,
      ["firma", "aviso"],
    ),
    (r, fx) => {
      const fields: Fields = [
        ["rfc", "CACX7605101P8"],
        ["nombre", "Xochilt Casas Chávez"],
        ["codigoPostal", "36257"],
        ["regimen", "612"],
        ["uso", "G03"],
        ["correo", "xochilt@example.mx"],
      ];
      const broken = r.pick<[string, string[]]>([
        ["rfc", ["", "XAXX010101000", "CACX7605101P9", "GODE561331GR8", "ÑÑÑ", "'; DROP TABLE orders; --"]],
        ["nombre", ["", "ab"]],
        ["codigoPostal", ["", "0001", "00123", "abcde", "123456"]],
        ["regimen", ["", "999", "601", "__proto__"]],
        ["uso", ["", "CN01", "Z99", "D01"]],
        ["correo", ["", "no-es-correo", "@x.mx"]],
      ]);
      const order = r.pick([fx.paidOrder, fx.shippedOrder, oddSegment(r)]);
      const pathname = `/mi-pedido/${order}/factura`;
      const firma = r.pick(["", r.id(43), oddSegment(r)]);
      return {
        method: "POST",
        target: `${pathname}${r.chance(0.3) ? ".data" : ""}${r.chance(0.8) ? `?firma=${firma}` : ""}`,
        body: formBody(r, noise(r, breakField(r, fields, broken[0], broken[1]))),
      };
    },
  ],
  // Never the order waiting for payment: /cancel?pedido=… of a real hold releases it (as it should).
  "routes/cancel.tsx": [
    (r, fx) => {
      const pedido = r.pick([
        () => oddSegment(r),
        () => fx.paidOrder,
        () => fx.shippedOrder,
        () => `OL-${r.id(8).toUpperCase()}`,
      ])();
      const draft = page(() => "/cancel")(r, fx);
      if (!draft.target.includes(".data"))
        draft.target = `/cancel?pedido=${pedido}${r.chance(0.2) ? `&pedido=${oddSegment(r)}` : ""}`;
      return draft;
    },
  ],
  // The second factor's two steps: without a sign-in waiting, the code form answers 401; with a
  // finished session, set-up sends on. Codes of every shape, the trust box, odd redirects.
  "routes/login-code.tsx": [
    (r) => {
      const m = method(r, "POST");
      const fields: Fields = r.pick<() => Fields>([
        () => [],
        () => [["code", r.pick(["123456", "000000", "ABCD-EFGH", "1234567", oddText(r)])]],
        () => [
          ["code", r.pick(["654321", oddText(r)])],
          ["trustDevice", r.pick(["on", "", oddText(r)])],
          ["redirectTo", r.pick(["//evil.example", "/admin/drops", oddText(r)])],
        ],
      ])();
      return {
        method: m,
        target: r.chance(0.2) ? "/login/codigo.data" : `/login/codigo${query(r, ["redirectTo"])}`,
        body: m === "POST" ? formBody(r, noise(r, fields)) : undefined,
        session: r.chance(0.3),
      };
    },
  ],
  "routes/login-set-up.tsx": [
    (r) => {
      const m = method(r, "POST");
      const fields: Fields = r.pick<() => Fields>([
        () => [],
        () => [["code", r.pick(["123456", "", oddText(r)])]],
        () => [
          ["code", oddText(r)],
          ["intent", r.pick(["activar", "", oddText(r)])],
        ],
      ])();
      return {
        method: m,
        target: r.chance(0.2) ? "/login/configurar.data" : "/login/configurar",
        body: m === "POST" ? formBody(r, noise(r, fields)) : undefined,
        session: r.chance(0.5),
      };
    },
  ],
  "routes/login.tsx": [
    (r) => {
      const m = method(r, "POST");
      const fields: Fields = r.pick<() => Fields>([
        () => [],
        () => [["email", oddText(r)]],
        () => [
          ["email", "admin@example.com"],
          ["password", oddText(r)],
        ],
        () => [
          ["email", oddText(r)],
          ["password", oddText(r)],
          ["redirectTo", r.pick(["//evil.example", "/admin/../../x", "javascript:alert(1)", oddText(r)])],
        ],
        () => [
          ["email", "a@b.c"],
          ["password", "x"],
          ["email", "c@d.e"],
        ],
      ])();
      return {
        method: m,
        target: `/login${r.chance(0.4) ? query(r, ["redirectTo", "sesion"]) : ""}`,
        body: m === "POST" ? formBody(r, noise(r, fields)) : undefined,
        session: r.chance(0.2),
      };
    },
  ],
  // Signing out is a real change: never with the shop's own origin and the session together.
  "routes/logout.ts": [
    (r) => {
      const m = method(r, "POST");
      return {
        method: m,
        target: r.chance(0.2) ? "/logout.data" : `/logout${query(r, ["redirectTo"])}`,
        body: m === "POST" ? formBody(r, noise(r, [])) : undefined,
        session: r.chance(0.5),
        sameOrigin: false,
      };
    },
  ],
  "routes/api.cart.ts": [
    (r, fx) => {
      const ids = Array.from({ length: r.pick([0, 1, 3, 51, 200]) }, () =>
        r.pick([() => r.pick(fx.products).id, () => oddSegment(r), () => enc(oddText(r).slice(0, 2000))])(),
      );
      const draft = resource("/api/cart")(r, fx);
      if (!draft.target.includes(".data"))
        draft.target = `/api/cart?${ids.map((id) => `id=${id}`).join("&")}`;
      return draft;
    },
  ],
  "routes/api.checkout.ts": [
    (r, fx) => {
      const m = method(r, "POST");
      const json = checkoutJson(r, fx);
      const type = r.pick([
        "application/json",
        "application/json",
        "application/json; charset=utf-16",
        "application/json-seq",
        "text/plain",
        "application/x-www-form-urlencoded",
        "",
      ]);
      return {
        method: m,
        target: r.chance(0.1) ? "/api/checkout.data" : `/api/checkout${query(r, ["x"])}`,
        body:
          m === "GET" && r.chance(0.8)
            ? undefined
            : { type, body: Buffer.from(json), how: `JSON ${JSON.stringify(json.slice(0, 60))}` },
      };
    },
  ],
  "routes/api.stripe-webhook.ts": [
    (r, fx) => {
      const m = method(r, "POST");
      return {
        method: m,
        target: "/api/stripe/webhook",
        headers: r.chance(0.5)
          ? [["Stripe-Signature", r.pick(["t=1,v1=abc", "", "x".repeat(3000), "t=,v1="])]]
          : [],
        body: {
          type: r.pick(["application/json", "text/plain", ""]),
          body: Buffer.from(checkoutJson(r, fx)),
          how: "evento roto",
        },
      };
    },
  ],
  "routes/demo-payment.tsx": [
    (r, fx) => {
      const id = r.pick([
        () => fx.waitingOrder,
        () => fx.paidOrder,
        () => oddSegment(r),
        () => `OL-${r.id(8).toUpperCase()}`,
      ])();
      const m = method(r, "POST");
      // A payment form that cannot be paid: one field refused; never intent=cancel on the real hold.
      const [broken, bad] = r.pick<[string, string[]]>([
        ["name", ["", "x"]],
        ["email", ["", "no-es-correo", "a@"]],
        ["phone", ["", "12", "teléfono"]],
        ["line1", ["", "ab"]],
        ["line2", ["", "x"]],
        ["postalCode", ["", "1234", "abcde"]],
        ["city", ["", "x"]],
        ["state", ["", "x", "x".repeat(61)]],
      ]);
      let fields = breakField(r, PAYMENT_FIELDS, broken, bad);
      if (id !== fx.waitingOrder && r.chance(0.3)) fields = [["intent", "cancel"], ...fields];
      return {
        method: m,
        target: r.chance(0.2) ? dataUrl(r, `/pago-demo/${id}`) : `/pago-demo/${id}`,
        body: m === "POST" ? formBody(r, noise(r, fields)) : undefined,
      };
    },
  ],
  "routes/sitemap.ts": [resource("/sitemap.xml")],
  "routes/robots.ts": [resource("/robots.txt")],
  "routes/not-found.tsx": [
    page((r) =>
      r.pick([
        () => `/no/existe/${oddSegment(r)}`,
        () => `/assets/${oddSegment(r)}.js`,
        () => `/media/drops/${oddSegment(r)}/${oddSegment(r)}.webp`,
        () => `/media/${oddSegment(r)}`,
        () => "/media/drops/../../shop.db",
        () => `/${oddSegment(r)}`,
        () => "/registro",
        () => "/api/",
        () => `/api/${oddSegment(r)}`,
        () => "/.env",
        () => "/admin/orders/exportar.csv/../../../package.json",
      ])(),
    ),
  ],
  "routes/admin/layout.tsx": [
    adminPage((r) => `/admin/${r.pick(["", "x", "orders/", "drops/nope", oddSegment(r)])}`),
  ],
  "routes/admin/index.tsx": [adminPage((r) => r.pick(["/admin", "/admin/", "/admin?index"]))],
  "routes/admin/orders/index.tsx": [
    adminPage(() => "/admin/orders", ["estado", "q", "pagina", "desde", "hasta", "aviso"]),
    // 'Atender seleccionados': every batch has a line the desk must refuse, so none ships.
    (r, fx) => {
      const m = method(r, "POST");
      const refusedLine = () =>
        r.pick([
          `${fx.shippedOrder},EST-1234`,
          `${fx.waitingOrder},EST-1234`,
          "OL-ZZZZZZZZ,EST-1234",
          `${fx.paidOrder},`,
          `${fx.paidOrder},EST-1;sobra`,
          `${oddText(r)},EST-1234`,
        ]);
      const fields: Fields = r.chance(0.7)
        ? [
            ["intent", "atenderlote"],
            ["carrier", r.pick(["Estafeta", "Otra", "", oddText(r)])],
            ["otherCarrier", r.pick(["Mensajería", oddText(r)])],
            [
              "csv",
              ["pedido,guía", refusedLine(), r.chance(0.5) ? refusedLine() : ""].join(r.pick(["\n", "\r\n"])),
            ],
          ]
        : [
            ["intent", "atenderlote"],
            ["carrier", "Estafeta"],
            ["pedido", r.pick([fx.paidOrder, fx.shippedOrder, oddText(r)])],
            ["guia", r.pick(["", oddText(r).slice(0, 2)])],
          ];
      return {
        method: m,
        target: r.chance(0.25) ? dataUrl(r, "/admin/orders") : "/admin/orders",
        body: m === "POST" ? formBody(r, noise(r, fields)) : undefined,
        session: r.chance(0.75),
      };
    },
  ],
  "routes/admin/orders/print-many.tsx": [
    adminPage(
      (r, fx) =>
        `/admin/orders/imprimir?pedidos=${r.pick([
          `${fx.paidOrder},${fx.shippedOrder}`,
          fx.waitingOrder,
          `${fx.paidOrder},${notThe(r, fx.paidOrder)}`,
          oddSegment(r),
          "",
        ])}`,
    ),
  ],
  "routes/admin/orders/export.ts": [
    (r, fx) => {
      const draft = adminPage(() => "/admin/orders/exportar.csv", ["estado", "q", "desde", "hasta"])(r, fx);
      return draft;
    },
  ],
  "routes/admin/orders/detail.tsx": [
    // Desk actions: on real orders only the ones their status refuses, or with a broken form;
    // anything goes on ids that do not exist.
    (r, fx) => {
      const real = r.pick([fx.waitingOrder, fx.paidOrder, fx.shippedOrder]);
      const odd = r.chance(0.4);
      const id = odd ? notThe(r, real) : real;
      const m = method(r, "POST");
      let fields: Fields;
      const reenviar = (): Fields => [
        ["intent", "reenviar"],
        ["email", r.pick([oddText(r), r.id(), fx.emailId.toUpperCase()])],
      ];
      if (odd) {
        fields = r.pick<() => Fields>([
          () => shipmentForm(r, r.pick(["atender", "corregir"])),
          () => [
            ["intent", r.pick(["archivar", "eliminar", "borrar"])],
            ["volver", r.pick(["/admin/orders", "//evil.example", oddText(r)])],
          ],
          () => [
            ["intent", "reenviar"],
            ["email", fx.emailId],
          ],
        ])();
      } else if (real === fx.waitingOrder) {
        fields = r.pick<() => Fields>([
          () => [
            ["intent", r.pick(["atender", "corregir", "archivar", "eliminar", "borrar"])],
            ["carrier", "Estafeta"],
            ["trackingNumber", "EST-1234"],
          ],
          reenviar,
        ])();
      } else if (real === fx.paidOrder) {
        fields = r.pick<() => Fields>([
          () => shipmentForm(r, "atender"),
          () => [
            ["intent", r.pick(["corregir", "archivar", "borrar"])],
            ["carrier", "Estafeta"],
            ["trackingNumber", "EST-1234"],
          ],
          reenviar,
        ])();
      } else {
        fields = r.pick<() => Fields>([
          () => shipmentForm(r, "corregir"),
          () => [
            ["intent", r.pick(["atender", "eliminar"])],
            ["carrier", "Estafeta"],
            ["trackingNumber", "EST-1234"],
          ],
          reenviar,
        ])();
      }
      if (r.chance(0.15))
        fields = [["intent", r.pick(["", "ELIMINAR", "desconocida", oddText(r)])], ...fields];
      return {
        method: m,
        target: r.chance(0.25)
          ? dataUrl(r, `/admin/orders/${id}`)
          : `/admin/orders/${id}${r.chance(0.1) ? "/" : ""}`,
        body: m === "POST" ? formBody(r, noise(r, fields)) : undefined,
        session: r.chance(0.75),
      };
    },
  ],
  "routes/admin/orders/print.tsx": [
    adminPage(
      (r, fx) =>
        `/admin/orders/${someId(r, r.pick([fx.waitingOrder, fx.paidOrder, fx.shippedOrder]))}/imprimir`,
    ),
  ],
  "routes/admin/drops/layout.tsx": [adminPage((r) => `/admin/drops/${r.pick(["", "x", oddSegment(r)])}`)],
  "routes/admin/drops/list.tsx": [
    adminPage(
      (r) =>
        `/admin/drops${r.pick(["", "/show-active-drops", "/show-upcoming-drops", "/show-archive-drops"])}`,
      ["aviso", "index"],
    ),
  ],
  "routes/admin/drops/opening.tsx": [
    adminPage((r, fx) => `/admin/drops/${someId(r, r.pick(fx.drops))}/apertura`, ["desde"]),
  ],
  "routes/admin/drops/opening-data.ts": [
    adminPage((r, fx) => `/admin/drops/${someId(r, r.pick(fx.drops))}/apertura/datos`, ["desde"]),
  ],
  "routes/admin/drops/new.tsx": [
    (r) => {
      const m = method(r, "POST");
      return {
        method: m,
        target: r.chance(0.2) ? dataUrl(r, "/admin/drops/new-drop") : "/admin/drops/new-drop",
        body: m === "POST" ? formBody(r, noise(r, dropForm(r, null, null))) : undefined,
        session: r.chance(0.75),
      };
    },
  ],
  "routes/admin/drops/edit.tsx": [
    (r, fx) => {
      const real = r.pick(fx.drops);
      const odd = r.chance(0.4);
      const id = odd ? notThe(r, real) : real;
      const m = method(r, "POST");
      // Deleting is tried only on ids that are not a real drop's.
      const fields: Fields =
        odd && r.chance(0.4)
          ? [["intent", "eliminar"]]
          : dropForm(r, id, r.pick(["2031-01-01T00:00:00.000Z", "", null]));
      return {
        method: m,
        target: r.chance(0.2) ? dataUrl(r, `/admin/drops/edit-drop/${id}`) : `/admin/drops/edit-drop/${id}`,
        body: m === "POST" ? formBody(r, noise(r, fields)) : undefined,
        session: r.chance(0.75),
      };
    },
  ],
  "routes/admin/settings.tsx": [
    (r) => {
      const m = method(r, "POST");
      const fields: Fields = r.chance(0.2)
        ? [["restablecer", r.pick(["name", "detalles", "carriers", "legalTerms", oddText(r)])]]
        : [
            ["name", r.pick(["Luna Nueva", "", oddText(r)])],
            ["email", r.pick(["hola@orodeluna.mx", "sin-arroba"])],
            ["whatsapp", r.pick(["5215512345678", "+52 1 55 1234 5678", "abc"])],
            ["instagramUrl", r.pick(["https://www.instagram.com/orodeluna.mx", "javascript:alert(1)"])],
            ["agencyName", "Taller Digital"],
            ["agencyUrl", r.pick(["https://example.com", "ftp://example.com"])],
            ["processVideoUrl", r.pick(["", "https://player.vimeo.com/video/1", "data:text/html,x"])],
            ["defaultMaxPerOrder", r.pick(["", "3", "0", "-1", "1e9"])],
            ["carriers[0].name", r.pick(["Estafeta", "Otra", ""])],
            ["carriers[0].trackingUrl", r.pick(["https://e.example/{guia}", "https://e.example/", ""])],
            ["legalPrivacy", r.pick(["## Aviso\n\nTexto.", "", oddText(r)])],
            ["legalShipping", "## Envíos\n\n- A todo México"],
            ["legalReturns", "Devoluciones."],
            ["legalTerms", "Términos."],
          ];
      return {
        method: m,
        target: r.chance(0.2) ? dataUrl(r, "/admin/settings") : "/admin/settings",
        body: m === "POST" ? formBody(r, noise(r, fields)) : undefined,
        session: r.chance(0.75),
      };
    },
  ],
  "routes/admin/campaigns/waitlists.tsx": [
    adminPage(() => "/admin/campains", ["drop", "vista", "estado", "pagina"]),
    // Its actions on what does not exist: a test e-mail for no drop, 'Reenviar' for no message.
    (r) => {
      const m = method(r, "POST");
      const fields: Fields = r.pick<() => Fields>([
        () => [
          ["intent", "prueba"],
          ["drop", r.pick([oddText(r), r.id()])],
        ],
        () => [
          ["intent", "reenviar"],
          ["email", r.pick([oddText(r), r.id()])],
        ],
        () => [["intent", r.pick(["", "PRUEBA", oddText(r)])]],
      ])();
      return {
        method: m,
        target: r.chance(0.25) ? dataUrl(r, "/admin/campains") : "/admin/campains",
        body: m === "POST" ? formBody(r, noise(r, fields)) : undefined,
        session: r.chance(0.75),
      };
    },
  ],
  "routes/admin/campaigns/mail-log.tsx": [
    adminPage(() => "/admin/campains/correos", ["estado", "pagina"]),
    // 'Reenviar' for no message, or another intent.
    (r) => {
      const m = method(r, "POST");
      const fields: Fields = r.chance(0.7)
        ? [
            ["intent", "reenviar"],
            ["email", r.pick([oddText(r), r.id()])],
          ]
        : [["intent", r.pick(["", "prueba", oddText(r)])]];
      return {
        method: m,
        target: r.chance(0.25) ? dataUrl(r, "/admin/campains/correos") : "/admin/campains/correos",
        body: m === "POST" ? formBody(r, noise(r, fields)) : undefined,
        session: r.chance(0.75),
      };
    },
  ],
  "routes/admin/campaigns/export.ts": [
    (r, fx) => {
      const m = method(r, "POST");
      return {
        method: m,
        target: "/admin/campains/exportar.csv",
        body:
          m === "POST"
            ? formBody(r, noise(r, [["drop", r.pick([oddText(r), r.id(), ...fx.drops])]]))
            : undefined,
        session: r.chance(0.6),
      };
    },
  ],
  "routes/admin/reports.tsx": [adminPage(() => "/admin/reports", ["coleccion", "mes"])],
  "routes/admin/returns.tsx": [
    (r) => {
      const m = method(r, "POST");
      return {
        method: m,
        target: r.chance(0.2)
          ? dataUrl(r, "/admin/devoluciones")
          : `/admin/devoluciones${query(r, ["vista"])}`,
        body:
          m === "POST"
            ? formBody(
                r,
                noise(r, [
                  [
                    "intent",
                    r.pick(["aceptar", "rechazar", "recibir", "cerrar", "reintentar", "amano", oddText(r)]),
                  ],
                  ["devolucion", r.pick([`DV-${r.id(8).toUpperCase()}`, oddText(r), ""])],
                  ["mensaje", r.pick(["", "Envía a Calle 1", oddText(r)])],
                  ["inventario", r.pick(["0", "-1", oddText(r)])],
                  ["llegaron-0", r.pick(["0", "1", "-1", "99999", oddText(r)])],
                ]),
              )
            : undefined,
        session: r.chance(0.75),
      };
    },
  ],
  "routes/admin/reports-csv.ts": [adminPage(() => "/admin/reports.csv", ["coleccion", "mes"])],
  "routes/admin/invoices.tsx": [adminPage(() => "/admin/facturas", ["mes"])],
  "routes/admin/invoices-csv.ts": [
    adminPage((r) => r.pick(["/admin/facturas/solicitudes.csv", "/admin/facturas/global.csv"]), ["mes"]),
  ],
  // Signing out everywhere is a real change: never with the shop's own origin and the session.
  "routes/admin/sessions.ts": [
    (r) => {
      const m = method(r, "POST");
      return {
        method: m,
        target: r.chance(0.2) ? "/admin/sessions.data" : `/admin/sessions${query(r, ["x"])}`,
        body: m === "POST" ? formBody(r, noise(r, [])) : undefined,
        session: r.chance(0.6),
        sameOrigin: false,
      };
    },
  ],
  "routes/admin/media.ts": [
    (r, fx) => {
      const m = method(r, "POST");
      const boundary = `----fuzz${r.id(10)}`;
      const dropId = r.pick([() => r.pick(fx.drops), () => oddSegment(r), () => ""])();
      const kind = r.pick(["image", "video", "", "pdf", oddText(r).slice(0, 100)]);
      // Never a file the upload would take: junk bytes, a cut-off PNG, the wrong kind.
      const file = r.pick([
        () => undefined,
        () => ({ name: "foto.png", type: "image/png", bytes: TINY_PNG }),
        () => ({ name: "../../../etc/passwd", type: "image/jpeg", bytes: Buffer.from("no soy una imagen") }),
        () => ({ name: "video.mp4", type: "video/mp4", bytes: Buffer.alloc(r.int(0, 5000), 7) }),
        () => ({ name: "\u0000.heic", type: "image/heic", bytes: Buffer.from("ftypheic") }),
        () => ({ name: "x".repeat(2000), type: "text/html", bytes: Buffer.from("<script>") }),
      ])();
      const fields: Fields = r.chance(0.8)
        ? [
            ["dropId", dropId],
            ["kind", kind],
          ]
        : [["kind", kind]];
      const whole = multipart(boundary, noise(r, fields), file);
      const body = r.pick([
        () => ({
          type: `multipart/form-data; boundary=${boundary}`,
          body: whole,
          how: `subida ${kind.slice(0, 10)} ${file?.name.slice(0, 20)}`,
        }),
        () => ({
          type: `multipart/form-data; boundary=${boundary}`,
          body: whole.subarray(0, r.int(0, whole.length)),
          how: "subida cortada",
        }),
        () => ({ type: "multipart/form-data", body: whole, how: "subida sin boundary" }),
        () => ({ type: "application/json", body: Buffer.from('{"dropId":1}'), how: "subida JSON" }),
        () => ({ type: "image/png", body: TINY_PNG, how: "PNG suelto" }),
      ])();
      return {
        method: m,
        target: r.chance(0.15) ? "/admin/media.data" : `/admin/media${query(r, ["dropId", "kind"])}`,
        body: m === "POST" ? body : undefined,
        session: r.chance(0.75),
      };
    },
  ],
};

/** Requests of the edge's own kind, for any route: bad request lines, Host headers, huge headers. */
function edgeProbe(r: Rng, fx: Fixtures, port: number): Probe {
  return r.pick<() => Probe>([
    () => ({
      method: "GET",
      target: "/",
      headers: [],
      host: r.pick(["", "a b", "evil.example/x", "[::1", "x".repeat(300), "127.0.0.1:99999"]),
      note: "Host raro",
    }),
    () => ({ method: "GET", target: "/", headers: [], host: null, note: "sin Host" }),
    () => ({
      method: "GET",
      target: "/",
      headers: [["Cookie", `x=${"a".repeat(20_000)}`]],
      note: "cookie de 20 KB",
    }),
    () => ({
      method: "GET",
      target: "/api/cart",
      headers: [["X-Junk", "z".repeat(40_000)]],
      note: "encabezado de 40 KB",
    }),
    () => ({
      method: "GET",
      target: "/",
      headers: [["X-Bad", "a\u0001b"]],
      note: "carácter de control en un encabezado",
    }),
    () => ({ method: "GET", target: "/ HTTP/1.1", headers: [], note: "línea de solicitud rota" }),
    () => ({ method: "GET", target: "/a b", headers: [], note: "espacio en la dirección" }),
    () => ({ method: "G\u00c9T", target: "/", headers: [], note: "método con acento" }),
    () => ({
      method: "POST",
      target: "/api/checkout",
      headers: [
        ["Content-Length", "5"],
        ["Content-Length", "6"],
        ["Content-Type", "application/json"],
      ],
      body: Buffer.from("{}{}{}"),
      note: "dos Content-Length",
    }),
    () => ({
      method: "POST",
      target: "/api/checkout",
      headers: [["Content-Length", "-1"]],
      body: Buffer.from("{}"),
      note: "Content-Length negativo",
    }),
    () => ({
      method: "POST",
      target: "/api/checkout",
      headers: [["Transfer-Encoding", "gzip, chunked"]],
      body: Buffer.from("0\r\n\r\n"),
      note: "Transfer-Encoding raro",
    }),
    () => ({
      method: "POST",
      target: r.pick(["/api/checkout", "/login", "/admin/drops/new-drop"]),
      headers: [
        ["Content-Type", "application/json"],
        ["Origin", fx.origin],
      ],
      body: Buffer.alloc(300 * 1024, 0x20),
      note: "cuerpo de 300 KB",
    }),
    () => ({ method: "GET", target: `/${"a/".repeat(4000)}`, headers: [], note: "dirección de 8 KB" }),
    () => ({
      method: "GET",
      target: `http://127.0.0.1:${port}/colecciones`,
      headers: [],
      note: "dirección absoluta",
    }),
    () => ({ method: r.pick(["GET", "OPTIONS", "POST"]), target: "*", headers: [], note: "dirección *" }),
    () => ({
      method: "CONNECT",
      target: "evil.example:443",
      headers: [],
      host: "evil.example:443",
      note: "CONNECT",
    }),
    () => ({
      method: "GET",
      target: "/colecciones",
      headers: [
        ["Connection", "Upgrade"],
        ["Upgrade", "websocket"],
      ],
      note: "Upgrade",
    }),
    () => ({ method: "GET", target: "/", headers: [["Expect", "100-continue, algo"]], note: "Expect raro" }),
    () => ({ method: "PRI", target: "*", headers: [], host: null, note: "preámbulo de HTTP/2" }),
    () => ({
      method: "GET",
      target: "/nosotros HTTP/1.0\r\nX-A: 1\r\nY:",
      headers: [],
      note: "línea partida",
    }),
  ])();
}

function toProbe(r: Rng, fx: Fixtures, route: string, draft: Draft): Probe {
  const noiseHeaders = headerNoise(r, fx, draft.session ?? false);
  const headers: [string, string][] = [...noiseHeaders.headers, ...(draft.headers ?? [])];
  if (draft.method !== "GET" && draft.method !== "HEAD") {
    headers.push(...originHeaders(r, fx, draft.sameOrigin !== false || !(draft.session ?? false)));
  }
  if (draft.body) headers.push(["Content-Type", draft.body.type]);
  // Sometimes the body comes without a length, in chunks (the bridge counts it as it arrives).
  let body = draft.body?.body;
  if (body && r.chance(0.15)) {
    const chunks: Buffer[] = [];
    for (let at = 0; at < body.length; ) {
      const size = Math.min(r.int(1, 4096), body.length - at);
      chunks.push(Buffer.from(`${size.toString(16)}\r\n`), body.subarray(at, at + size), Buffer.from("\r\n"));
      at += size;
    }
    body = Buffer.concat([...chunks, Buffer.from("0\r\n\r\n")]);
    headers.push(["Transfer-Encoding", "chunked"]);
    noiseHeaders.note.push("en trozos");
  }
  const note = [
    route,
    draft.session ? "con sesión" : "sin sesión",
    draft.body ? draft.body.how : "",
    ...noiseHeaders.note,
    draft.note ?? "",
  ].filter(Boolean);
  return {
    method: draft.method,
    target: draft.target,
    headers,
    body,
    note: note.join("; "),
    route,
  };
}

// ---------------------------------------------------------------------------------------------
// The ledger and everything the requests must leave as it was.

/** Stock on the shelf + pieces held by checkouts waiting for payment + pieces sold: never changes. */
async function stockLedger(database: Database): Promise<number> {
  const shelf = await database.db
    .selectFrom("products")
    .select(sql<number>`coalesce(sum(stock), 0)`.as("pieces"))
    .executeTakeFirstOrThrow();
  const ordered = await database.db
    .selectFrom("order_lines")
    .innerJoin("orders", "orders.id", "order_lines.order_id")
    .where("orders.status", "in", ["esperando_pago", "pendiente", "enviado", "archivado"])
    .select(sql<number>`coalesce(sum(order_lines.quantity - order_lines.missing), 0)`.as("pieces"))
    .executeTakeFirstOrThrow();
  return Number(shelf.pieces) + Number(ordered.pieces);
}

async function snapshot(database: Database, mediaDir: string) {
  const db = database.db;
  const count = async (
    table:
      | "drops"
      | "products"
      | "product_images"
      | "media"
      | "orders"
      | "order_lines"
      | "order_events"
      | "emails"
      | "payment_events"
      | "auth_user"
      | "auth_session",
  ) => Number((await db.selectFrom(table).select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow()).n);
  const counts: Record<string, number> = {};
  for (const table of [
    "drops",
    "products",
    "product_images",
    "media",
    "orders",
    "order_lines",
    "order_events",
    "emails",
    "payment_events",
    "auth_user",
    "auth_session",
  ] as const) {
    counts[table] = await count(table);
  }
  const files = fs.existsSync(mediaDir)
    ? fs.readdirSync(mediaDir, { recursive: true }).map(String).sort()
    : [];
  return {
    counts,
    drops: await db
      .selectFrom("drops")
      .select(["id", "name", "status", "start_at", "end_at", "updated_at"])
      .orderBy("id")
      .execute(),
    products: await db
      .selectFrom("products")
      .select(["id", "name", "stock", "price_cents", "updated_at"])
      .orderBy("id")
      .execute(),
    orders: await db
      .selectFrom("orders")
      .select(["id", "status", "carrier", "tracking_number", "updated_at"])
      .orderBy("id")
      .execute(),
    files,
  };
}

// ---------------------------------------------------------------------------------------------

/** Every route file of app/routes.ts, so a route added later without a generator fails the test. */
function routeFiles(entries: RouteConfigEntry[]): string[] {
  return entries.flatMap((e) => [e.file, ...routeFiles(e.children ?? [])]);
}

it("every route of app/routes.ts has requests in the fuzz", () => {
  const missing = [...new Set(routeFiles(routeConfig))].filter((file) => !GENERATORS[file]);
  expect(missing).toEqual([]);
});

describeEachDatabase("malformed requests on every route", (harness) => {
  let server: RunningServer;
  let database: Database;
  let fx: Fixtures;
  let dataDir: string;

  beforeAll(async () => {
    database = await harness.fresh();
    dataDir = path.join(tmp, harness.dialect);
    const pieces = [
      await runningPiece(database, { stock: 5 }),
      await runningPiece(database, { stock: 3, name: "Collar Luna" }),
    ];
    const waiting = await hold(database.db, {
      lines: [{ productId: pieces[0]?.id ?? "", dropId: pieces[0]?.dropId ?? "", quantity: 1 }],
      provider: "demo",
    });
    const paid = await hold(database.db, {
      lines: [{ productId: pieces[1]?.id ?? "", dropId: pieces[1]?.dropId ?? "", quantity: 1 }],
      provider: "demo",
    });
    const shipped = await hold(database.db, {
      lines: [{ productId: pieces[0]?.id ?? "", dropId: pieces[0]?.dropId ?? "", quantity: 2 }],
      provider: "demo",
    });
    for (const order of [paid, shipped]) {
      await confirmPayment(database.db, {
        orderId: order.id,
        customerName: "Renata Quiroga",
        customerEmail: `cliente-${newId(6)}@example.com`,
        shipping: oaxacaAddress("Renata Quiroga", "951 123 4567"),
      });
    }
    expect(
      (await shipOrder(database.db, shipped.id, { carrier: "Estafeta", trackingNumber: "EST-0001" })).ok,
    ).toBe(true);
    const email = await database.db
      .selectFrom("emails")
      .select("id")
      .where("order_id", "=", paid.id)
      .executeTakeFirstOrThrow();
    server = await startServer({
      DATA_DIR: dataDir,
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
    });
    const cookie = await signInAdmin(server, database);
    fx = {
      origin: server.url,
      cookie,
      drops: pieces.map((p) => p.dropId),
      products: pieces.map((p) => ({ id: p.id, dropId: p.dropId })),
      waitingOrder: waiting.id,
      paidOrder: paid.id,
      shippedOrder: shipped.id,
      emailId: email.id,
    };
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers each below 500 and in Spanish, and changes nothing", async () => {
    console.log(`Fuzz: semilla ${SEED}, ${COUNT} solicitudes (FUZZ_SEED=${SEED} para repetirlas)`);
    const port = Number(new URL(server.url).port);
    const mediaDir = path.join(dataDir, "media");
    const logStart = server.output().length;
    const ledger = await stockLedger(database);
    const before = await snapshot(database, mediaDir);

    const r = new Rng(SEED);
    const routes = Object.keys(GENERATORS);
    const probes: Probe[] = [];
    for (let i = 0; i < COUNT; i++) {
      if (i % 12 === 11) {
        probes.push(edgeProbe(r, fx, port));
        continue;
      }
      // Every route first, then at random.
      const route = i < routes.length ? (routes[i] as string) : r.pick(routes);
      const generators = GENERATORS[route] ?? [];
      probes.push(toProbe(r, fx, route, r.pick(generators)(r, fx)));
    }

    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let knownSeen = 0;
    let next = 0;
    const worker = async () => {
      while (next < probes.length) {
        const index = next++;
        const probe = probes[index] as Probe;
        const answer = await send(port, probe);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const found = problems(probe, answer).filter((problem) => {
          const known = isKnown(probe, problem);
          if (known) knownSeen++;
          return !known;
        });
        if (found.length) {
          const target = probe.target.length > 120 ? `${probe.target.slice(0, 120)}…` : probe.target;
          failures.push(
            `#${index} ${probe.method} ${target} [${probe.note}] -> ${answer.status}: ${found.join(", ")}\n    ${answer.body.slice(0, 300).replace(/\s+/g, " ")}`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    console.log(`Fuzz: respuestas por estado ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
    if (knownSeen) console.log(`Fuzz: ${knownSeen} hallazgos ya conocidos (KNOWN), sin fallar`);

    expect(failures, `semilla ${SEED}`).toEqual([]);
    expect(stackTraces(server.output().slice(logStart)), `semilla ${SEED}`).toEqual([]);
    expect(await stockLedger(database)).toBe(ledger);
    expect(await snapshot(database, mediaDir)).toEqual(before);
    // The session survived: the requests with it reached the admin routes' own checks.
    const still = await send(port, {
      method: "GET",
      target: "/admin/orders",
      headers: [["Cookie", fx.cookie]],
      note: "",
    });
    expect(still.status).toBe(200);
  });
});
