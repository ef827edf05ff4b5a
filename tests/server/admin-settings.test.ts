import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { loadConfig } from "~/config/env.server";
import { BRAND, HERO_IMAGE } from "~/content/brand";
import type { Database } from "~/db/database.server";
import { formValues, STOREFRONT_MEDIA_FOLDER, settingsFromEnvironment } from "~/settings/settings";
import { readStoredSettings } from "~/settings/settings.server";
import { signInAdmin } from "../support/admin-http";
import { describeEachDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server-process";
import { settingsFormBody } from "../support/settings-form";

/*
 * Configuración over HTTP with two app servers on one database (decision 24): a save on one shows
 * in the footer and the CSP of the other within seconds, through its page cache and its front
 * door; bad input is refused in Spanish with 400; signed out 401, another site 403, nothing saved.
 * The storefront's story (decision 40) travels the same way: the hero edited on one server shows
 * on the other's home and /nosotros, its photo uploaded through the drops' media pipeline.
 */
vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-settings-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const EVIL = "https://evil.example";
const ENV = { SHOP_NAME: "Oro del Entorno", SHOP_WHATSAPP: "5215500000000" };

/** The whole form as the page sends it, from the environment's values and `changes`. */
function settingsForm(changes: Record<string, string> = {}): URLSearchParams {
  return settingsFormBody(formValues(settingsFromEnvironment(loadConfig(ENV).shop)), changes);
}

describeEachDatabase("Configuración on two app servers", (harness) => {
  let database: Database;
  let one: RunningServer;
  let two: RunningServer;
  let cookie: string;

  beforeAll(async () => {
    database = await harness.fresh();
    const env = (name: string) => ({
      ...ENV,
      DATA_DIR: path.join(tmp, `${harness.dialect}-${name}`),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
    });
    [one, two] = await Promise.all([startServer(env("uno")), startServer(env("dos"))]);
    cookie = await signInAdmin(one, database);
  });
  afterAll(async () => {
    await Promise.all([one?.stop(), two?.stop()]);
  });

  const save = (server: RunningServer, body: URLSearchParams, headers: Record<string, string>) =>
    fetch(`${server.url}/admin/settings`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body,
    });

  /**
   * Home from `server`'s page cache. On a slow machine an answer may come after its entry's 1 s
   * (the next is then a render): asked again until one is a hit.
   */
  async function cachedHome(server: RunningServer): Promise<Response> {
    let res = await fetch(`${server.url}/`);
    for (let i = 0; i < 5 && res.headers.get("x-cache") !== "HIT"; i++) {
      await res.arrayBuffer();
      res = await fetch(`${server.url}/`);
    }
    return res;
  }

  it("a save on one server changes the other's footer and CSP within seconds", async () => {
    // The other server's home, cached (the second answer comes from its page cache).
    const cached = await cachedHome(two);
    expect(cached.headers.get("x-cache")).toBe("HIT");
    const before = await cached.text();
    expect(before).toContain("Oro del Entorno");
    expect(before).toContain("https://wa.me/5215500000000");
    expect(cached.headers.get("content-security-policy")).not.toContain("vimeo");

    const saved = await save(
      one,
      settingsForm({
        name: "Luna Nueva Joyería",
        whatsapp: "+52 1 55 9876 5432",
        // The page's address, as owners copy it: /nosotros frames its player (a page cannot be).
        processVideoUrl: "https://vimeo.com/76979871",
      }),
      { cookie, origin: one.url },
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/admin/settings?aviso=guardado");
    const savedAt = Date.now();
    // The server that saved shows it at once.
    expect(await (await fetch(`${one.url}/`)).text()).toContain("Luna Nueva Joyería");

    // The other one within its poll (~2 s), page cache and front door included.
    let page = "";
    let policy = "";
    await expect
      .poll(
        async () => {
          const res = await fetch(`${two.url}/`);
          page = await res.text();
          policy = res.headers.get("content-security-policy") ?? "";
          return page.includes("Luna Nueva Joyería") && policy.includes("player.vimeo.com");
        },
        { timeout: 8_000, interval: 100 },
      )
      .toBe(true);
    const tookMs = Date.now() - savedAt;
    console.log(`[settings] ${harness.dialect}: the second server showed the save after ${tookMs} ms`);
    expect(tookMs).toBeLessThan(5_000);
    expect(page).toContain("https://wa.me/5215598765432");
    expect(page).not.toContain("Oro del Entorno");
    expect(policy).toMatch(/frame-src 'self' https:\/\/player\.vimeo\.com/);
    expect(policy).toMatch(/media-src [^;]*https:\/\/player\.vimeo\.com/);
    // Its /nosotros plays the video from there.
    const about = await (await fetch(`${two.url}/nosotros`)).text();
    expect(about).toContain('src="https://player.vimeo.com/video/76979871"');
    // A cached hit keeps the new policy (the front door's headers were made again).
    const hit = await cachedHome(two);
    expect(hit.headers.get("x-cache")).toBe("HIT");
    expect(hit.headers.get("content-security-policy")).toContain("player.vimeo.com");
  });

  it("'Restablecer' on one server puts the environment's name back on the other; the rest stays", async () => {
    const res = await save(one, new URLSearchParams({ restablecer: "name" }), { cookie, origin: one.url });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/settings?aviso=restablecido");
    let page = "";
    await expect
      .poll(
        async () => {
          page = await (await fetch(`${two.url}/`)).text();
          return page.includes("Oro del Entorno");
        },
        { timeout: 8_000, interval: 100 },
      )
      .toBe(true);
    expect(page).toContain("https://wa.me/5215598765432");
    expect(Object.keys((await readStoredSettings(database.db)).overrides).sort()).toEqual([
      "processVideoUrl",
      "whatsapp",
    ]);
  });

  it("the hero and /nosotros edited on one server show on the other within seconds, with an uploaded photo", async () => {
    await fetch(`${two.url}/`);
    expect((await fetch(`${two.url}/`)).headers.get("x-cache")).toBe("HIT");
    expect(await (await fetch(`${two.url}/nosotros`)).text()).toContain(BRAND.story.slice(0, 40));

    // The photo goes through the drops' upload pipeline, into the storefront's folder.
    const png = await sharp({
      create: { width: 1200, height: 800, channels: 3, background: { r: 200, g: 160, b: 60 } },
    })
      .png()
      .toBuffer();
    const upload = new FormData();
    upload.set("dropId", STOREFRONT_MEDIA_FOLDER);
    upload.set("kind", "image");
    upload.set("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "portada.png");
    const uploaded = await fetch(`${one.url}/admin/media`, {
      method: "POST",
      headers: { cookie, origin: one.url },
      body: upload,
    });
    expect(uploaded.status).toBe(201);
    const photo = (await uploaded.json()) as { id: string; url: string };

    const saved = await save(
      one,
      settingsForm({
        heroTitle: "Oro para todos los días",
        heroText: "Piezas pequeñas, hechas a mano, que no se repiten.",
        heroImage: photo.id,
        heroImageAlt: "Un anillo de oro sobre lino",
        brandStory: "Somos un taller de cinco personas.",
        "storyCards[0].title": "Una mesa prestada en Jalatlaco",
        "timeline[0].year": "2015",
        "workshopPairs[0].before": photo.id,
        "workshopPairs[0].beforeAlt": "El anillo recién fundido",
      }),
      { cookie, origin: one.url },
    );
    expect(saved.status).toBe(302);
    const savedAt = Date.now();
    let page = "";
    await expect
      .poll(
        async () => {
          page = await (await fetch(`${two.url}/`)).text();
          return page.includes("Oro para todos los días");
        },
        { timeout: 8_000, interval: 100 },
      )
      .toBe(true);
    const tookMs = Date.now() - savedAt;
    console.log(`[settings] ${harness.dialect}: the second server showed the new hero after ${tookMs} ms`);
    expect(tookMs).toBeLessThan(5_000);
    expect(page).toContain("Piezas pequeñas, hechas a mano, que no se repiten.");
    expect(page).toContain('alt="Un anillo de oro sobre lino"');
    expect(page).toMatch(new RegExp(`srcSet="[^"]*${photo.id}-480\\.webp 480w`, "i"));
    expect(page).toContain("Somos un taller de cinco personas.");
    expect(page).not.toContain(HERO_IMAGE.src);
    const about = await (await fetch(`${two.url}/nosotros`)).text();
    expect(about).toContain("Somos un taller de cinco personas.");
    expect(about).toContain("Una mesa prestada en Jalatlaco");
    expect(about).toContain('<time dateTime="2015">2015</time>');
    expect(about).toContain('alt="El anillo recién fundido"');
    expect(about).toContain(`${photo.id}-480.webp 480w`);
    // A link to the brand's page shared on WhatsApp previews the owner's hero photo, as JPEG.
    expect(about).toMatch(new RegExp(`<meta property="og:image" content="[^"]+/${photo.id}-\\d+\\.jpg"`));
    expect(about).not.toContain("Muy pronto");
    // So does a page without a photo of its own.
    const terms = await (await fetch(`${two.url}/terminos-y-condiciones`)).text();
    expect(terms).toMatch(new RegExp(`<meta property="og:image" content="[^"]+/${photo.id}-\\d+\\.jpg"`));

    // A bad value is refused in Spanish beside its field; nothing is saved.
    const before = await readStoredSettings(database.db);
    const bad = await save(one, settingsForm({ heroTitle: "", heroImage: "no-es-un-id" }), {
      cookie,
      origin: one.url,
    });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("Escribe el título de la portada.");
    expect(html).toContain("Imagen de la portada: súbela de nuevo.");
    expect(await readStoredSettings(database.db)).toEqual(before);
  });

  it("a bad address is refused with 400 in Spanish, keeping what was typed; nothing is saved", async () => {
    const before = await readStoredSettings(database.db);
    const res = await save(
      one,
      settingsForm({ name: "Nombre tecleado", instagramUrl: "javascript:alert(1)", email: "sin-arroba" }),
      { cookie, origin: one.url },
    );
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Instagram: escribe una dirección web completa que empiece con https://");
    expect(html).toContain("Escribe un correo válido");
    expect(html).toContain('value="Nombre tecleado"');
    expect(await readStoredSettings(database.db)).toEqual(before);
  });

  it("'Restablecer' with a name of no group nor field, even one every object has, is a Spanish 400; nothing changes", async () => {
    const before = await readStoredSettings(database.db);
    for (const name of ["constructor", "__proto__", "toString", "nada"]) {
      const res = await save(one, new URLSearchParams({ restablecer: name }), { cookie, origin: one.url });
      expect(res.status, name).toBe(400);
      expect(await res.text(), name).toContain("No hay nada que restablecer con ese nombre.");
    }
    expect(await readStoredSettings(database.db)).toEqual(before);
    // Nor does a notice's name in the address: the page shows no notice.
    for (const aviso of ["constructor", "__proto__", "nada"]) {
      const page = await fetch(`${one.url}/admin/settings?aviso=${aviso}`, { headers: { cookie } });
      expect(page.status, aviso).toBe(200);
      expect(await page.text(), aviso).not.toContain('role="status"');
    }
  });

  it("signed out 401 (the page sends to /login), from another site 403; nothing changes", async () => {
    const before = await readStoredSettings(database.db);
    const page = await fetch(`${one.url}/admin/settings`, { redirect: "manual" });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent("/admin/settings")}`);

    const body = settingsForm({ name: "Tienda Ajena" });
    expect((await save(one, body, { origin: one.url })).status).toBe(401);
    expect((await save(one, body, { cookie, origin: EVIL })).status).toBe(403);
    expect((await save(two, body, { cookie, "sec-fetch-site": "cross-site" })).status).toBe(403);
    const reset = new URLSearchParams({ restablecer: "name" });
    expect((await save(one, reset, { origin: one.url })).status).toBe(401);
    expect((await save(one, reset, { cookie, origin: EVIL })).status).toBe(403);
    expect(await readStoredSettings(database.db)).toEqual(before);
    // The session is untouched and the page answers.
    expect((await fetch(`${one.url}/admin/settings`, { headers: { cookie } })).status).toBe(200);
  });
});
