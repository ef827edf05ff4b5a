import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it, vi } from "vitest";
import { DEMO_DROPS } from "~/demo/catalogue";
import { PAGE_JS_BUDGET_KB, pageJavaScript } from "../../scripts/bench/page-javascript.mjs";
import { failedStart, type RunningServer, startServer } from "../support/server-process";

// Each first start draws the demo catalogue's images: allow for a busy machine.
vi.setConfig({ testTimeout: 180_000 });

const running = DEMO_DROPS.find((d) => d.role === "running")?.name ?? "";
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-server-"));
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function start(env: Record<string, string>) {
  const server = await startServer(env);
  servers.push(server);
  return server;
}

describe("a fresh start on the embedded defaults", () => {
  const dataDir = path.join(tmp, "data");
  let server: RunningServer;

  it("creates the data folder, loads the demo catalogue and serves the home page", async () => {
    // No SESSION_SECRET: the try-it mode makes one.
    server = await start({ DATA_DIR: dataDir, SESSION_SECRET: "" });
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.includes(running), "home shows the running demo drop").toBe(true);
    expect(html.includes('lang="es-MX"')).toBe(true);
    expect(fs.existsSync(path.join(dataDir, "shop.db"))).toBe(true);
    expect(server.output()).toContain("catálogo de demostración");
  });

  it("creates a demo administrator and prints its password once; it can sign in", async () => {
    const out = server.output();
    expect(out).toContain("Administrador de demostración creado");
    const email = out.match(/correo: +(\S+)/)?.[1] ?? "";
    const password = out.match(/contraseña: +(\S+)/)?.[1] ?? "";
    expect(email).toBe("admin@orodeluna.mx");
    expect(password.length).toBeGreaterThanOrEqual(16);
    const res = await fetch(`${server.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password }),
    });
    expect(res.status).toBe(302);
    // Its first sign-in goes on to setting up the authenticator app (decision 23).
    expect(res.headers.get("location")).toBe("/login/configurar");
    // The generated cookie-signing secret is readable by the shop's user only.
    expect(fs.statSync(path.join(dataDir, "session-secret")).mode & 0o077).toBe(0);
  });

  it("sends security headers with a per-request script nonce", async () => {
    // /success is never cached; cached pages carry script hashes instead (tests/server/page-cache.test.ts).
    const first = await fetch(`${server.url}/success`);
    const second = await fetch(`${server.url}/success`);
    const csp = first.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
    expect(nonce).toBeTruthy();
    expect(second.headers.get("content-security-policy")).not.toContain(nonce);
    // Every inline script carries the nonce, or the browser would block hydration.
    const html = await first.text();
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((m) => m[1]);
    expect(inline.length).toBeGreaterThan(0);
    for (const attrs of inline) expect(attrs).toContain(`nonce="${nonce}"`);

    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(first.headers.get("x-frame-options")).toBe("DENY");
    expect(first.headers.get("x-powered-by")).toBeNull();
    expect(first.headers.get("permissions-policy")).toContain("camera=()");
    expect(first.headers.get("permissions-policy")).toContain("geolocation=()");
    // No HSTS over plain HTTP (it would lock a local install out), nor for a client that merely
    // claims HTTPS when no trusted proxy is configured.
    expect(first.headers.get("strict-transport-security")).toBeNull();
    const spoofed = await fetch(`${server.url}/healthz`, { headers: { "x-forwarded-proto": "https" } });
    expect(spoofed.headers.get("strict-transport-security")).toBeNull();
  });

  it("compresses pages and caches hashed assets and media for a year", async () => {
    const page = await fetch(`${server.url}/`, { headers: { "accept-encoding": "gzip" } });
    expect(page.headers.get("content-encoding")).toBe("gzip");
    const html = await page.text();

    const asset = html.match(/\/assets\/[^"']+\.js/)?.[0];
    expect(asset).toBeTruthy();
    const assetRes = await fetch(`${server.url}${asset}`);
    expect(assetRes.status).toBe(200);
    expect(assetRes.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");

    // The brand's two web fonts: preloaded, hashed, cached for a year, allowed by the CSP.
    const fonts = [...html.matchAll(/<link rel="preload" href="(\/assets\/[^"]+\.woff2)" as="font"/g)].map(
      (m) => m[1],
    );
    expect(fonts).toHaveLength(2);
    for (const font of fonts) {
      const fontRes = await fetch(`${server.url}${font}`);
      expect(fontRes.status).toBe(200);
      expect(fontRes.headers.get("content-type")).toBe("font/woff2");
      expect(fontRes.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
    // Fonts fall back to default-src, which allows the shop's own files.
    const policy = page.headers.get("content-security-policy") ?? "";
    expect(policy).toMatch(/(^|;)\s*default-src 'self'(;|$)/);
    expect(policy).not.toContain("font-src");

    const image = html.match(/\/media\/drops\/[^"' ]+\.webp/)?.[0];
    expect(image).toBeTruthy();
    const imageRes = await fetch(`${server.url}${image}`);
    expect(imageRes.status).toBe(200);
    expect(imageRes.headers.get("content-type")).toBe("image/webp");
    expect(imageRes.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // E-mails show them from elsewhere (a webmail, the owner's preview in a sandboxed frame).
    expect(imageRes.headers.get("cross-origin-resource-policy")).toBe("cross-origin");

    // A link shared on WhatsApp shows its preview photo only if it is not WebP: home's and a
    // product's og:image are their photos' JPEG copies.
    const product = html.match(/href="(\/drop\/[^"/]+\/product\/[^"/]+)"/)?.[1] ?? "";
    for (const [page, body] of [
      ["/", html],
      [product, await (await fetch(`${server.url}${product}`)).text()],
    ]) {
      const preview = body?.match(/<meta property="og:image" content="([^"]+)"/)?.[1] ?? "";
      expect(preview, page).toMatch(/^http:\/\/[^/]+\/media\/drops\/[^"]+-960\.jpg$/);
      const previewRes = await fetch(`${server.url}${new URL(preview).pathname}`);
      expect(previewRes.status, page).toBe(200);
      expect(previewRes.headers.get("content-type"), page).toBe("image/jpeg");
    }
    // The brand's page shows the hero drawing: as a JPEG rendering, not its SVG.
    const about = await (await fetch(`${server.url}/nosotros`)).text();
    const aboutPreview = about.match(/<meta property="og:image" content="([^"]+)"/)?.[1] ?? "";
    expect(new URL(aboutPreview).pathname).toBe("/brand/hero.jpg");
    // Every public page has one: a legal page, which has no photo of its own, the brand's.
    const terms = await (await fetch(`${server.url}/terminos-y-condiciones`)).text();
    const termsPreview = terms.match(/<meta property="og:image" content="([^"]+)"/)?.[1] ?? "";
    expect(new URL(termsPreview).pathname).toBe("/brand/hero.jpg");
    const aboutRes = await fetch(`${server.url}/brand/hero.jpg`);
    expect(aboutRes.headers.get("content-type")).toBe("image/jpeg");

    for (const path of ["/media/drops/nada/no-existe-480.webp", "/media/shop.db", "/media/%2e%2e/shop.db"]) {
      const missing = await fetch(`${server.url}${path}`);
      expect(missing.status, path).toBe(404);
      expect((await missing.text()).includes("SQLite format"), path).toBe(false);
    }
  });

  it("home, a collection and a product page each load at most 120 KB of JavaScript (gzip); home never the charts", async () => {
    const home = await (await fetch(`${server.url}/`)).text();
    const collection = home.match(/href="(\/coleccion\/[^"]+)"/)?.[1];
    if (!collection) throw new Error("home links no collection");
    const collectionHtml = await (await fetch(`${server.url}${collection}`)).text();
    const product = collectionHtml.match(/href="(\/drop\/[^"]+\/product\/[^"]+)"/)?.[1];
    if (!product) throw new Error(`${collection} links no product`);
    const cache = new Map();
    for (const [page, html] of [
      ["/", home],
      [collection, collectionHtml],
      [product, await (await fetch(`${server.url}${product}`)).text()],
    ] as const) {
      const js = await pageJavaScript(server.url, html, cache);
      expect(js.files.length, page).toBeGreaterThan(0);
      expect(js.kb, `${page}: ${js.files.join(", ")}`).toBeLessThanOrEqual(PAGE_JS_BUDGET_KB);
      expect(js.charts, page).toBe(false);
    }
  });

  it("answers /healthz after checking the database", async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    // Only ok or error: nothing about what runs behind it.
    expect(await res.json()).toEqual({ status: "ok" });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("on SIGTERM finishes the request in flight, closes its keep-alive connection and exits 0", async () => {
    // A keep-alive request whose headers are still arriving when the signal comes.
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString();
    });
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    await new Promise<void>((resolve) => socket.on("connect", () => resolve()));
    // And a connection that never sends a byte (a balancer's spare): it must not hold the stop.
    const silent = net.connect(Number(port), "127.0.0.1");
    silent.on("error", () => {});
    const silentClosed = new Promise<void>((resolve) => silent.on("close", () => resolve()));
    socket.write("GET /healthz HTTP/1.1\r\nHost: tienda\r\nConnection: keep-alive\r\n");
    await sleep(300);
    const started = Date.now();
    const exited = server.stop();
    // The rest of the request once the shop has taken the signal (said in its log), not after a
    // fixed pause: on a loaded machine the signal may be handled later than any pause.
    for (let waited = 0; !server.output().includes("SIGTERM: cerrando") && waited < 10_000; waited += 25)
      await sleep(25);
    socket.write("\r\n");
    await closed; // the server closes the connection after answering
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    // Its own lines say which part of the stop held it, when one does.
    expect(await exited, server.output().slice(-3000)).toBe(0);
    // Within its grace (10 s): a job round under way is waited for up to 4 s of it.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(server.output()).toContain("SIGTERM");
    await silentClosed;
  });

  it("a second start keeps the data without seeding again", async () => {
    // The owner's own change must survive the restart.
    const db = new SQLite(path.join(dataDir, "shop.db"));
    db.prepare("update drops set name = 'Colección de la dueña' where name = ?").run(running);
    const before = db.prepare("select count(*) as n from products").get() as { n: number };
    db.close();

    const again = await start({ DATA_DIR: dataDir, SESSION_SECRET: "" });
    const html = await (await fetch(`${again.url}/`)).text();
    expect(html.includes(">Colección de la dueña</h2>"), "the renamed drop is shown").toBe(true);
    expect(html.includes(`>${running}</h2>`), "the demo name is gone").toBe(false);
    expect(again.output()).not.toContain("catálogo de demostración");
    expect(again.output(), "the demo password is printed only once").not.toContain("contraseña:");
    const reopened = new SQLite(path.join(dataDir, "shop.db"), { readonly: true });
    expect(reopened.prepare("select count(*) as n from products").get()).toEqual(before);
    reopened.close();
    expect(await again.stop()).toBe(0);
  });
});

describe("HTTPS behind a load balancer", () => {
  it("sends HSTS when the proxy says the request was HTTPS", async () => {
    const server = await start({ DATA_DIR: path.join(tmp, "hsts"), TRUST_PROXY: "true", DEMO_DATA: "false" });
    const res = await fetch(`${server.url}/healthz`, { headers: { "x-forwarded-proto": "https" } });
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    await server.stop();
  });

  it("takes forms posted from PUBLIC_URL when the proxy sends its own Host (nginx's default)", async () => {
    const server = await start({
      DATA_DIR: path.join(tmp, "proxied"),
      PUBLIC_URL: "https://tienda.example",
      TRUST_PROXY: "true",
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
    });
    // The request reaches the shop as http://127.0.0.1:<port> (what the proxy asked for); the
    // browser's page was https://tienda.example. React Router alone answered a bare English 400.
    const res = await fetch(`${server.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: {
        origin: "https://tienda.example",
        "x-forwarded-proto": "https",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ email: "nadie@example.com", password: "no es la contraseña" }),
    });
    const body = await res.text();
    expect(res.status, body).toBe(401);
    expect(body).toContain("Credenciales inválidas");
    await server.stop();
  });
});

// Each start is its own process with its own data folder: side by side, they take one start's time.
describe.concurrent("start-up problems stop the server with one clear message", () => {
  const expectOneClearLine = (stderr: string) => {
    expect(stderr).not.toMatch(/^\s+at /m); // no stack trace
    expect(stderr.trim().split("\n").length).toBeLessThanOrEqual(3);
  };

  it("an unwritable data folder", async () => {
    const file = path.join(tmp, "a-file");
    fs.writeFileSync(file, "");
    const { code, stderr } = await failedStart({ DATA_DIR: path.join(file, "data") });
    expect(code).toBe(1);
    expect(stderr).toContain("No se puede escribir en la carpeta de datos (DATA_DIR)");
    expect(stderr).toContain(path.join(file, "data"));
    expectOneClearLine(stderr);
  });

  it("a DATABASE_URL that cannot be reached, without showing its password", async () => {
    const { code, stderr } = await failedStart({
      DATA_DIR: path.join(tmp, "unreachable"),
      DATABASE_URL: "postgres://shop:secreto@127.0.0.1:1/shop",
      DEMO_PAYMENTS: "true",
    });
    expect(code).toBe(1);
    expect(stderr).toContain("No se puede conectar a PostgreSQL en 127.0.0.1:1/shop");
    expect(stderr).not.toContain("secreto");
    expectOneClearLine(stderr);
  });

  it("a media folder that would serve the database to browsers", async () => {
    const dataDir = path.join(tmp, "same");
    const { code, stderr } = await failedStart({ DATA_DIR: dataDir, MEDIA_DIR: dataDir });
    expect(code).toBe(1);
    expect(stderr).toContain("MEDIA_DIR: no puede contener la base de datos");
    expectOneClearLine(stderr);
  });

  it("S3 media storage without its bucket or the public address media are served from", async () => {
    const { code, stderr } = await failedStart({
      DATA_DIR: path.join(tmp, "s3"),
      MEDIA_STORAGE: "s3",
      S3_ACCESS_KEY_ID: "clave",
    });
    expect(code).toBe(1);
    expect(stderr).toContain("S3_BUCKET: hace falta");
    expect(stderr).toContain("S3_PUBLIC_URL: hace falta con S3");
    expect(stderr).toContain("S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: van juntas");
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it("PostgreSQL without a payment provider, unless the demo page is asked for", async () => {
    const { code, stderr } = await failedStart({
      DATA_DIR: path.join(tmp, "nopay"),
      DATABASE_URL: "postgres://shop@127.0.0.1:1/shop",
    });
    expect(code).toBe(1);
    expect(stderr).toContain("DEMO_PAYMENTS: no hay otro proveedor de pagos");
    expectOneClearLine(stderr);
  });

  it("Stripe without the shop's public address (its return pages would trust the Host header)", async () => {
    const { code, stderr } = await failedStart({
      DATA_DIR: path.join(tmp, "stripe-no-url"),
      STRIPE_SECRET_KEY: "sk_test_123",
      STRIPE_WEBHOOK_SECRET: "whsec_123",
    });
    expect(code).toBe(1);
    expect(stderr).toContain("PUBLIC_URL: hace falta con Stripe");
    expectOneClearLine(stderr);
  });

  it("a public HTTPS shop without Stripe refuses the demo payment page unless asked for", async () => {
    const { code, stderr } = await failedStart({
      DATA_DIR: path.join(tmp, "public"),
      PUBLIC_URL: "https://tienda.example",
    });
    expect(code).toBe(1);
    expect(stderr).toContain("DEMO_PAYMENTS: no hay otro proveedor de pagos");
  });

  it("PostgreSQL or a public HTTPS shop without a SESSION_SECRET to sign admin cookies", async () => {
    const settings: Record<string, string>[] = [
      { DATABASE_URL: "postgres://shop@127.0.0.1:1/shop", DEMO_PAYMENTS: "true" },
      { PUBLIC_URL: "https://tienda.example", DEMO_PAYMENTS: "true" },
    ];
    const starts = await Promise.all(
      settings.map((env, i) =>
        failedStart({ DATA_DIR: path.join(tmp, `nosecret-${i}`), SESSION_SECRET: "", ...env }),
      ),
    );
    for (const { code, stderr } of starts) {
      expect(code).toBe(1);
      expect(stderr).toContain("SESSION_SECRET: hace falta");
      expectOneClearLine(stderr);
    }
  });

  it("a setting with a bad value", async () => {
    const { code, stderr } = await failedStart({
      DATA_DIR: path.join(tmp, "bad"),
      PORT: "tres mil",
      SHOP_EMAIL: "no",
      PROCESS_VIDEO_URL: "javascript:alert(1)",
    });
    expect(code).toBe(1);
    expect(stderr).toContain("Configuración inválida");
    expect(stderr).toContain("PORT: debe ser un número");
    expect(stderr).toContain("SHOP_EMAIL: debe ser un correo válido");
    expect(stderr).toContain("PROCESS_VIDEO_URL: debe ser una dirección completa http(s)");
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("on PostgreSQL (DATABASE_URL=postgres://…)", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  it("two app servers starting together on one database seed it once", async () => {
    const { postgresHarness } = await import("../support/databases");
    const harness = postgresHarness(process.env.TEST_DATABASE_URL ?? "", cleanups);
    const probe = await harness.fresh();
    const env = {
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "true",
      DEMO_PAYMENTS: "true",
      MEDIA_DIR: path.join(tmp, "pg-media"),
    };
    const [a, b] = await Promise.all([
      start({ ...env, DATA_DIR: path.join(tmp, "pg-a") }),
      start({ ...env, DATA_DIR: path.join(tmp, "pg-b") }),
    ]);
    for (const server of [a, b]) {
      const html = await (await fetch(`${server.url}/`)).text();
      expect(html.includes(running), "home shows the running demo drop").toBe(true);
      expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: "ok" });
    }
    const drops = await probe.db.selectFrom("drops").select("name").execute();
    expect(drops).toHaveLength(DEMO_DROPS.length);

    // One demo administrator, printed by one server; its session works on both servers.
    expect(await probe.db.selectFrom("auth_user").select("email").execute()).toHaveLength(1);
    const printed = [a, b].filter((s) => s.output().includes("contraseña:"));
    expect(printed).toHaveLength(1);
    const out = printed[0]?.output() ?? "";
    const login = await fetch(`${a.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: a.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        email: out.match(/correo: +(\S+)/)?.[1] ?? "",
        password: out.match(/contraseña: +(\S+)/)?.[1] ?? "",
      }),
    });
    expect(login.status).toBe(302);
    const cookie = login.headers.getSetCookie()[0]?.split(";")[0] ?? "";
    // The session started on A is known to B: its next step, setting up the second factor, is there.
    const onB = await fetch(`${b.url}/login/configurar`, { redirect: "manual", headers: { cookie } });
    expect(onB.status).toBe(200);
    expect(await onB.text()).toContain("app de autenticación");
    expect(await a.stop()).toBe(0);
    expect(await b.stop()).toBe(0);
  });
});
