import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Database } from "~/db/database.server";
import { describeEachDatabase } from "../support/databases";
import { boughtOnDemoPage } from "../support/demo-purchase";
import { type RunningServer, startServer } from "../support/server-process";

/*
 * 'Mi pedido' (issue 27) through HTTP: an order's page opens only from its signed link (a changed
 * number or signature is a 404 with nothing of any order); the look-up by number and e-mail gives
 * the same answer for an unknown number and a wrong e-mail, and is limited; the confirmation
 * e-mail links the page.
 */

vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-order-page-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describeEachDatabase("'Mi pedido'", (harness) => {
  let server: RunningServer;
  let database: Database;
  let dataDir: string;

  beforeAll(async () => {
    database = await harness.fresh();
    dataDir = path.join(tmp, harness.dialect);
    server = await startServer({
      DATA_DIR: dataDir,
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
      REQUEST_LIMITS: "true",
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A piece bought on the demo payment page by `email`: its order number. */
  const bought = (email: string) =>
    boughtOnDemoPage(
      server,
      database,
      { name: "Anillo Mío", priceCents: 420_000 },
      { name: "Alma Díaz", email },
    );

  /** The look-up form sent as a browser without JavaScript sends it (a new browser each time unless `cookie`). */
  const lookUp = (number: string, email: string, cookie?: string) =>
    fetch(`${server.url}/mi-pedido`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: server.url,
        ...(cookie ? { cookie } : {}),
      },
      body: new URLSearchParams({ number, email }),
    });

  it("found by its number and e-mail; the page opens only from its signed link", async () => {
    const email = `alma.${harness.dialect}@example.mx`;
    const orderId = await bought(email);
    // Any case, spaces: the buyer types it.
    const found = await lookUp(` ${orderId.toLowerCase()} `, email.toUpperCase());
    expect(found.status).toBe(302);
    const link = found.headers.get("location") ?? "";
    expect(link).toMatch(new RegExp(`^/mi-pedido/${orderId}\\?firma=[\\w-]+$`));
    const page = await fetch(`${server.url}${link}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    const html = await page.text();
    for (const text of [
      orderId,
      "Anillo Mío",
      "$4,200.00",
      "Pagado: lo estamos preparando",
      "Oaxaca de Juárez",
    ])
      expect(html).toContain(text);

    // Another order's number under this signature, or this one's with a changed signature: nothing.
    const other = await bought(`otra.${harness.dialect}@example.mx`);
    const firma = new URL(link, server.url).searchParams.get("firma") ?? "";
    const changed = `${firma.slice(0, -2)}${firma.endsWith("AA") ? "BB" : "AA"}`;
    for (const wrong of [
      `/mi-pedido/${other}?firma=${firma}`,
      `/mi-pedido/${orderId}?firma=${changed}`,
      `/mi-pedido/${orderId}`,
      // Its return form, likewise, to read or to post.
      `/mi-pedido/${other}/devolucion?firma=${firma}`,
      `/mi-pedido/${orderId}/devolucion?firma=${changed}`,
    ]) {
      const res = await fetch(`${server.url}${wrong}`);
      expect(res.status, wrong).toBe(404);
      const body = await res.text();
      expect(body, wrong).not.toContain("Anillo Mío");
      expect(body, wrong).not.toContain("Alma");
      // Not a dead end: she can find it again by its number and her e-mail.
      expect(body, wrong).toContain("Buscar mi pedido");
    }
    const posted = await fetch(`${server.url}/mi-pedido/${orderId}/devolucion?firma=${changed}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      body: "pieza-0=1&motivo=talla",
    });
    expect(posted.status).toBe(404);
    // Signed, but not delivered yet: the form says so, and a post is refused in Spanish.
    const form = await fetch(`${server.url}/mi-pedido/${orderId}/devolucion?firma=${firma}`);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain("Podrás pedir una devolución cuando tu pedido se haya entregado.");
    const early = await fetch(`${server.url}/mi-pedido/${orderId}/devolucion?firma=${firma}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      body: "pieza-0=1&motivo=talla",
    });
    expect(early.status).toBe(409);
    expect(await early.text()).toContain("Podrás pedir una devolución cuando tu pedido se haya entregado.");
    const bad = await fetch(`${server.url}/mi-pedido/${orderId}/devolucion?firma=${firma}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
      body: "motivo=nada",
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Elige al menos una pieza para devolver.");
  });

  it("the same answer for an unknown number and a wrong e-mail; a bad e-mail is told beside its field", async () => {
    const email = `rosa.${harness.dialect}@example.mx`;
    const orderId = await bought(email);
    const wrongEmail = await lookUp(orderId, `otra.${email}`);
    const unknown = await lookUp("OL-ZZZZZZZZ", email);
    expect(wrongEmail.status).toBe(404);
    expect(unknown.status).toBe(404);
    const [a, b] = [await wrongEmail.text(), await unknown.text()];
    expect(a).toContain("No encontramos un pedido con ese número y ese correo.");
    expect(b).toContain("No encontramos un pedido con ese número y ese correo.");
    expect(a).not.toContain("Anillo Mío");
    const bad = await lookUp(orderId, "no-es-correo");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Escribe un correo válido.");
  });

  it("is limited: a browser guessing orders is stopped with a Spanish 429", async () => {
    const first = await lookUp("OL-AAAAAAAA", "nadie@example.mx");
    const cookie = (first.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    expect(cookie).toMatch(/navegador=/);
    const statuses = [first.status];
    for (let i = 0; i < 12; i++)
      statuses.push((await lookUp(`OL-AAAAAA${i}A`.slice(0, 11), "nadie@example.mx", cookie)).status);
    expect(statuses.slice(0, 10).every((s) => s === 404)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const limited = await lookUp("OL-AAAAAAAA", "nadie@example.mx", cookie);
    expect(limited.status).toBe(429);
    expect(await limited.text()).toContain("Demasiados intentos seguidos.");
  });

  it("the look-up's address written with escapes, or as another of its routes' spellings, is refused, not answered past its limit", async () => {
    for (const target of [
      "/mi%2Dpedido",
      "/mi-pedid%6F.data",
      "/c%61ncel?pedido=OL-AAAAAAAA",
      // React Router reads these as the same page, its data or its trailing-slash data request.
      "/mi-pedido/",
      "/mi-pedido/_.data",
      "/mi-pedido//_.data",
      "/MI-PEDIDO.data",
      "/cancel/_.data?pedido=OL-AAAAAAAA",
      "/login/_.data",
      "/coleccion/una-coleccion/_.data",
    ]) {
      const res = await fetch(`${server.url}${target}`, {
        method: /^\/c(ancel|%61ncel)/.test(target) ? "GET" : "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
        ...(/^\/c(ancel|%61ncel)/.test(target)
          ? {}
          : { body: new URLSearchParams({ number: "OL-AAAAAAAA", email: "a@example.mx" }) }),
      });
      expect(res.status, target).toBe(400);
      expect(await res.text(), target).toContain("La dirección no es válida.");
    }
    // Dot segments, which the URL parser drops on the way to React Router (fetch drops them too,
    // so these go as written): refused as forms, and a page sent to its own spelling.
    for (const target of ["/./mi-pedido", "/%2e/mi-pedido.data", "/x/../mi-pedido", "/mi-pedido/."]) {
      const res = await rawRequest(server.url, target, "POST", "number=OL-AAAAAAAA&email=a%40example.mx");
      expect(res.status, target).toBe(400);
      expect(res.body, target).toContain("La dirección no es válida.");
    }
    const dotted = await rawRequest(server.url, "/./mi-pedido", "GET");
    expect(dotted.status).toBe(301);
    expect(dotted.location).toBe("/mi-pedido");
    // A page asked for that way (a typed address, an old link) is sent to the shop's own spelling.
    for (const [target, to] of [
      ["/mi-pedido/", "/mi-pedido"],
      ["/Login?next=%2Fadmin", "/login?next=%2Fadmin"],
    ]) {
      const res = await fetch(`${server.url}${target}`, { redirect: "manual" });
      expect(res.status, target).toBe(301);
      expect(res.headers.get("location"), target).toBe(to);
    }
  });

  it("the confirmation e-mail links the order's page", async () => {
    const email = `luz.${harness.dialect}@example.mx`;
    const orderId = await bought(email);
    const outbox = path.join(dataDir, "outbox");
    let message = "";
    await expect
      .poll(
        () => {
          const files = fs.existsSync(outbox) ? fs.readdirSync(outbox) : [];
          message =
            files
              .map((f) =>
                fs
                  .readFileSync(path.join(outbox, f), "utf8")
                  .replace(/=\r?\n/g, "")
                  .replace(/=3D/g, "="),
              )
              .find((m) => m.includes(orderId) && m.includes(email)) ?? "";
          return message !== "";
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    const link = new RegExp(
      `${server.url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/mi-pedido/${orderId}\\?firma=[\\w-]+`,
    ).exec(message)?.[0];
    expect(link).toBeTruthy();
    const page = await fetch(link ?? "");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(orderId);
  });
});

/** A request sent with its path exactly as written (fetch resolves `.` and `..` before sending). */
function rawRequest(
  base: string,
  target: string,
  method: "GET" | "POST",
  body?: string,
): Promise<{ status: number; body: string; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const url = new URL(base);
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: target,
        method,
        headers: body
          ? { "content-type": "application/x-www-form-urlencoded", origin: base }
          : { accept: "text/html" },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: text, location: res.headers.location }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
