import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createDrop } from "~/catalogue/catalogue.server";
import type { Database } from "~/db/database.server";
import { signInAdmin } from "../support/admin-http";
import { describeEachDatabase } from "../support/databases";
import { visibleText } from "../support/page-text";
import { type RunningServer, startServer } from "../support/server-process";

/* Drafts and publishing through HTTP (decision 38): what the public sees, the preview, 'Publicar'. */

vi.setConfig({ testTimeout: 60_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-drafts-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const HOUR = 3_600_000;

/** A moment as the form's date and time fields take it, in Mexico City: ["2026-11-23", "14:05:07"]. */
function shopFields(at: Date): [string, string] {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone: "America/Mexico_City",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return [`${parts.year}-${parts.month}-${parts.day}`, `${parts.hour}:${parts.minute}:${parts.second}`];
}

describeEachDatabase("drafts and publishing through HTTP", (harness) => {
  let server: RunningServer;
  let database: Database;
  let cookie = "";
  let draft = "";
  let product = "";

  beforeAll(async () => {
    database = await harness.fresh();
    const now = Date.now();
    draft = await createDrop(database.db, {
      name: "Luz Secreta",
      startAt: new Date(now - HOUR),
      endAt: new Date(now + HOUR),
      status: "activa",
      visibleFrom: null,
      products: [
        {
          name: "Anillo Secreto",
          categoria: "Anillo",
          material: "Oro rosa",
          priceCents: 250_000,
          stock: 2,
          imageId: null,
        },
      ],
    });
    const { id } = await database.db
      .selectFrom("products")
      .select("id")
      .where("drop_id", "=", draft)
      .executeTakeFirstOrThrow();
    product = id;
    server = await startServer({
      DATA_DIR: path.join(tmp, harness.dialect),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
    });
    cookie = await signInAdmin(server, database);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const get = (pathname: string, withCookie = "") =>
    fetch(`${server.url}${pathname}`, {
      redirect: "manual",
      headers: withCookie ? { cookie: withCookie } : {},
    });
  const publish = async (fields: Record<string, string>) => {
    const res = await fetch(`${server.url}/admin/drops/edit-drop/${draft}.data`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: server.url },
      body: new URLSearchParams(fields),
    });
    return { status: res.status, text: await res.text() };
  };
  /** What the public sees: the drop's own pages, and whether the lists name it. */
  const seenByPublic = async () => {
    const [collection, productPage, home, collections, sitemap] = await Promise.all([
      get(`/coleccion/${draft}`),
      get(`/drop/${draft}/product/${product}`),
      get("/"),
      get("/colecciones"),
      get("/sitemap.xml"),
    ]);
    return {
      collection: collection.status,
      product: productPage.status,
      home: (await home.text()).includes("Luz Secreta"),
      collections: (await collections.text()).includes("Luz Secreta"),
      sitemap: (await sitemap.text()).includes(`/coleccion/${draft}`),
    };
  };
  const hidden = { collection: 404, product: 404, home: false, collections: false, sitemap: false };
  const shown = { collection: 200, product: 200, home: true, collections: true, sitemap: true };

  it("a draft is a 404 at its address and absent from /, /colecciones and the sitemap; its preview shows it to an admin only", async () => {
    expect(await seenByPublic()).toEqual(hidden);
    // The preview parameter changes nothing for the public.
    expect((await get(`/coleccion/${draft}?vista-previa=1`)).status).toBe(404);
    expect((await get(`/drop/${draft}/product/${product}?vista-previa=1`)).status).toBe(404);

    const preview = await get(`/coleccion/${draft}?vista-previa=1`, cookie);
    expect(preview.status).toBe(200);
    expect(preview.headers.get("cache-control")).toContain("no-store");
    const text = visibleText(await preview.text());
    expect(text).toContain("Vista previa.");
    expect(text).toContain("Es un borrador: el público todavía no ve esta colección.");
    expect(text).toContain("Luz Secreta");
    expect(text).toContain("Anillo Secreto");
    const piece = await get(`/drop/${draft}/product/${product}?vista-previa=1`, cookie);
    expect(piece.status).toBe(200);
    expect(visibleText(await piece.text())).toContain("Vista previa.");
    // Without the parameter an admin sees the shop as the public does.
    expect((await get(`/coleccion/${draft}`, cookie)).status).toBe(404);
    // The admin lists it under Próximas as 'Borrador', though its start has passed.
    const upcoming = visibleText(await (await get("/admin/drops/show-upcoming-drops", cookie)).text());
    expect(upcoming).toContain("Luz Secreta");
    expect(upcoming).toContain("Borrador");
  });

  it("'Visible desde' is checked in Spanish with a 400 and changes nothing", async () => {
    const [lateDate, lateTime] = shopFields(new Date(Date.now() + 3 * HOUR));
    const late = await publish({
      intent: "publicar",
      cuando: "desde",
      visibleDate: lateDate,
      visibleTime: lateTime,
    });
    expect(late.status).toBe(400);
    expect(late.text).toContain("'Visible desde' debe ser antes del fin de la colección.");
    const bad = await publish({
      intent: "publicar",
      cuando: "desde",
      visibleDate: "2026-02-30",
      visibleTime: "10:00",
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("La fecha u hora de 'Visible desde' no es válida.");
    const none = await publish({ intent: "publicar" });
    expect(none.status).toBe(400);
    expect(await seenByPublic()).toEqual(hidden);
  });

  it("'Publicar' with 'Visible desde' in 2 seconds makes it appear then, without a restart; 'Volver a borrador' hides it", async () => {
    // The next whole second plus two: the form's time carries seconds.
    const moment = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000);
    const [date, time] = shopFields(moment);
    const published = await publish({
      intent: "publicar",
      cuando: "desde",
      visibleDate: date,
      visibleTime: time,
    });
    expect(published.status).toBe(200);
    expect(published.text).toContain("Colección publicada: visible desde el");
    // Before its moment the public still sees nothing (and the cache keeps nothing past it).
    if (Date.now() < moment.getTime() - 300) expect(await seenByPublic()).toEqual(hidden);
    let seen = await seenByPublic();
    while (JSON.stringify(seen) !== JSON.stringify(shown) && Date.now() < moment.getTime() + 5_000) {
      await sleep(100);
      seen = await seenByPublic();
    }
    expect(seen).toEqual(shown);
    // At most a second (the page cache's life) after the moment.
    expect(Date.now()).toBeLessThan(moment.getTime() + 2_500);
    expect(Date.now()).toBeGreaterThanOrEqual(moment.getTime());
    // Published and started: the admin lists it under Activas, its status activa.
    const active = visibleText(await (await get("/admin/drops/show-active-drops", cookie)).text());
    expect(active).toContain("Luz Secreta");
    expect(active).not.toContain("Borrador");

    const back = await publish({ intent: "borrador" });
    expect(back.status).toBe(200);
    expect(await seenByPublic()).toEqual(hidden);
  });
});
