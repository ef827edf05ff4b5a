import crypto from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { cacheKey, hasAdminSession, isCacheablePath } from "./cacheable-pages";
import { chooseEncoding } from "./cached-headers";
import { PageCache } from "./page-cache";
import { inlineScriptHashes, policyWithHashes } from "./script-hashes";

const sha = (text: string) => `'sha256-${crypto.createHash("sha256").update(text, "utf8").digest("base64")}'`;

describe("cacheKey", () => {
  it("keeps path and query, so each filter is its own page", () => {
    expect(cacheKey("/coleccion/abc?categoria=Anillo")).toBe("/coleccion/abc?categoria=Anillo");
    expect(cacheKey("/coleccion/abc?categoria=Collar")).not.toBe(cacheKey("/coleccion/abc?categoria=Anillo"));
    expect(cacheKey("/coleccion/abc")).not.toBe(cacheKey("/coleccion/abc?disponibles=1"));
  });
  it("reduces a collection page's query to its view, so junk parameters share one entry", () => {
    const view = "/coleccion/abc?categoria=Anillo&orden=precio-asc";
    expect(cacheKey("/coleccion/abc?orden=precio-asc&categoria=Anillo")).toBe(view);
    expect(cacheKey("/coleccion/abc?categoria=Anillo&orden=precio-asc&fbclid=123")).toBe(view);
    expect(cacheKey("/coleccion/abc?orden=precio-desc")).not.toBe(
      cacheKey("/coleccion/abc?orden=precio-asc"),
    );
    // An unknown order is the default, which the address leaves out.
    expect(cacheKey("/coleccion/abc?orden=zzz&utm_source=ig")).toBe("/coleccion/abc");
    expect(cacheKey("/coleccion/abc?orden=recientes")).toBe("/coleccion/abc");
    // 1,000 junk addresses are one entry.
    const keys = new Set(
      Array.from({ length: 1_000 }, (_, i) => cacheKey(`/coleccion/abc?x=${i}&orden=${i}`)),
    );
    expect([...keys]).toEqual(["/coleccion/abc"]);
  });
  it("names a view's sizes once each, in size order, whatever order the link gave", () => {
    expect(cacheKey("/coleccion/abc?talla=7.5&utm_source=ig&talla=7&talla=7")).toBe(
      "/coleccion/abc?talla=7&talla=7.5",
    );
    expect(cacheKey("/coleccion/abc?talla=")).toBe("/coleccion/abc");
  });
  it("leaves other pages' queries and the data requests as asked", () => {
    expect(cacheKey("/coleccion/abc.data?categoria=Anillo&_routes=routes%2Fcollection")).toBe(
      "/coleccion/abc.data?categoria=Anillo&_routes=routes%2Fcollection",
    );
    expect(cacheKey("/drop/abc/product/def?orden=x")).toBe("/drop/abc/product/def?orden=x");
  });
  it("treats an empty query and a fragment as nothing", () => {
    expect(cacheKey("/colecciones?")).toBe("/colecciones");
    expect(cacheKey("/colecciones#x")).toBe("/colecciones");
  });
});

describe("isCacheablePath", () => {
  it("accepts the public pages and their .data twins", () => {
    for (const p of [
      "/",
      "/_.data",
      "/colecciones",
      "/colecciones.data",
      "/coleccion/abc",
      "/coleccion/abc.data",
      "/drop/abc/product/def",
      "/drop/abc/product/def.data",
      "/nosotros",
      "/nosotros.data",
      "/aviso-de-privacidad",
      "/envios.data",
      "/cambios-y-devoluciones",
      "/terminos-y-condiciones.data",
      "/sitemap.xml",
      "/robots.txt",
    ]) {
      expect(isCacheablePath(p), p).toBe(true);
    }
  });
  it("refuses the admin area, the API, sign-in and everything else", () => {
    for (const p of [
      "/admin",
      "/admin/drops",
      "/admin/orders.data",
      "/api/cart",
      "/api/checkout",
      "/login",
      "/login.data",
      "/logout",
      "/success",
      "/success.data",
      "/cancel",
      "/envios/x",
      "/pago-demo/x",
      "/coleccion/abc/extra",
      "/healthz",
      "/no-existe",
    ]) {
      expect(isCacheablePath(p), p).toBe(false);
    }
  });
});

describe("hasAdminSession", () => {
  it("sees both cookie names, among others", () => {
    expect(hasAdminSession("sesion_admin=abc")).toBe(true);
    expect(hasAdminSession("a=1; __Host-sesion_admin=abc; b=2")).toBe(true);
  });
  it("is not fooled by similar names or values", () => {
    expect(hasAdminSession(undefined)).toBe(false);
    expect(hasAdminSession("x_sesion_admin=1")).toBe(false);
    expect(hasAdminSession("otra=sesion_admin=1")).toBe(false);
  });
});

describe("chooseEncoding", () => {
  it("prefers brotli, then gzip, then none", () => {
    expect(chooseEncoding("gzip, deflate, br")).toBe("br");
    expect(chooseEncoding("gzip, deflate")).toBe("gzip");
    expect(chooseEncoding("deflate")).toBe("identity");
    expect(chooseEncoding(undefined)).toBe("identity");
    expect(chooseEncoding("")).toBe("identity");
  });
  it("honours q=0 and the wildcard", () => {
    expect(chooseEncoding("br;q=0, gzip")).toBe("gzip");
    expect(chooseEncoding("br;q=0, gzip;q=0")).toBe("identity");
    expect(chooseEncoding("*")).toBe("br");
    expect(chooseEncoding("*;q=0, gzip")).toBe("gzip");
    expect(chooseEncoding("BR;Q=0.5")).toBe("br");
  });
});

describe("inlineScriptHashes", () => {
  it("hashes every inline script exactly as written, and no script with src", () => {
    const html =
      `<html><head><script type="module" src="/assets/a.js"></script>` +
      `<script>window.a = "<\\u002fscript>";</script></head>` +
      `<body><script type="module" async="">import "/assets/b.js";</script>` +
      `<SCRIPT nonce="x">console.log('é')</SCRIPT ></body></html>`;
    expect(inlineScriptHashes(html)).toEqual([
      sha(`window.a = "<\\u002fscript>";`),
      sha(`import "/assets/b.js";`),
      sha("console.log('é')"),
    ]);
  });
  it("finds none in a page without inline scripts", () => {
    expect(inlineScriptHashes(`<p>hola</p><script src="/x.js"></script>`)).toEqual([]);
  });
});

describe("policyWithHashes", () => {
  const policy = "default-src 'self';script-src 'self' 'nonce-abc==';object-src 'none'";
  it("replaces the nonce by the hashes and keeps every other directive", () => {
    expect(policyWithHashes(policy, ["'sha256-A='", "'sha256-B='"])).toBe(
      "default-src 'self';script-src 'self' 'sha256-A=' 'sha256-B=';object-src 'none'",
    );
  });
  it("leaves only 'self' when the page has no inline script", () => {
    expect(policyWithHashes(policy, [])).toBe("default-src 'self';script-src 'self';object-src 'none'");
  });
});

function page(body: string, init: ResponseInit = {}) {
  return new Response(body, {
    status: 200,
    headers: { "content-type": "text/html; charset=utf-8" },
    ...init,
  });
}

describe("PageCache", () => {
  it("renders once for many concurrent misses and serves the rest as hits", async () => {
    const cache = new PageCache();
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const render = async () => {
      await gate;
      return page("<p>uno</p>");
    };
    const asks = Array.from({ length: 50 }, () => cache.get("k", render));
    release();
    const results = await Promise.all(asks);
    expect(cache.renders).toBe(1);
    const outcomes = results.map((r) => (r === "pass" ? "pass" : r.outcome));
    expect(outcomes.filter((o) => o === "miss")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "hit")).toHaveLength(49);
  });

  it("renders again once the TTL has passed, counted from the start of the render", async () => {
    let now = 1_000;
    const cache = new PageCache({ now: () => now });
    let n = 0;
    const render = async () => {
      now += 300; // the render takes 300 ms
      return page(`<p>${++n}</p>`);
    };
    const first = await cache.get("k", render);
    now += 699; // 999 ms after the render started
    const second = await cache.get("k", render);
    now += 1;
    const third = await cache.get("k", render);
    const text = (r: typeof first) => (r === "pass" ? "pass" : r.page.bodies.identity.toString());
    expect([text(first), text(second), text(third)]).toEqual(["<p>1</p>", "<p>1</p>", "<p>2</p>"]);
  });

  it("renders a page still asked for in its last 200 ms again in the background, serving the old one meanwhile", async () => {
    let now = 1_000;
    const cache = new PageCache({ now: () => now });
    let n = 0;
    let release: () => void = () => {};
    const render = async () => {
      n++;
      if (n > 1)
        await new Promise<void>((r) => {
          release = r;
        });
      return page(`<p>${n}</p>`);
    };
    const text = (r: Awaited<ReturnType<typeof cache.get>>) =>
      r === "pass" ? "pass" : `${r.outcome} ${r.page.bodies.identity.toString()}`;
    expect(text(await cache.get("k", render))).toBe("miss <p>1</p>");
    now += 799;
    expect(cache.peek("k")).toBeDefined();
    expect(cache.renders).toBe(1);
    now += 1; // 200 ms left: due, and nothing under way, so the front door leaves it to get()
    expect(cache.peek("k")).toBeUndefined();
    expect(text(await cache.get("k", render))).toBe("hit <p>1</p>");
    expect(cache.renders).toBe(2);
    // While the new render runs, the old page is served, by both; no third render.
    expect(cache.peek("k")?.bodies.identity.toString()).toBe("<p>1</p>");
    expect(text(await cache.get("k", render))).toBe("hit <p>1</p>");
    expect(cache.renders).toBe(2);
    // Past the old page's second, requests wait for the new one, as for any render under way.
    now += 200;
    expect(cache.peek("k")).toBeUndefined();
    const waiting = cache.get("k", render);
    release();
    expect(text(await waiting)).toBe("hit <p>2</p>");
    expect(cache.peek("k")?.renderedAt).toBe(1_800);
    expect(cache.renders).toBe(2);
  });

  it("renews a due page from the front door's look-up, which keeps serving it meanwhile", async () => {
    let now = 1_000;
    const cache = new PageCache({ now: () => now });
    let n = 0;
    let release: () => void = () => {};
    const render = async () => {
      n++;
      if (n > 1)
        await new Promise<void>((r) => {
          release = r;
        });
      return page(`<p>${n}</p>`);
    };
    await cache.get("k", render);
    now += 800; // 200 ms left: due
    const reasons: string[] = [];
    const ahead = (reason: "miss" | "ahead") => {
      reasons.push(reason);
      return render();
    };
    expect(cache.peek("k", ahead)?.bodies.identity.toString()).toBe("<p>1</p>");
    expect(cache.peek("k", ahead)?.bodies.identity.toString()).toBe("<p>1</p>");
    expect(reasons).toEqual(["ahead"]);
    expect(cache.renders).toBe(2);
    release();
    await vi.waitFor(() => expect(cache.peek("k")?.renderedAt).toBe(1_800));
    // Its life still counts from the start of its render: 1 s after 1,800, not after it was stored.
    now = 2_799;
    expect(cache.peek("k", ahead)?.bodies.identity.toString()).toBe("<p>2</p>");
    now = 2_800;
    expect(cache.peek("k", ahead)).toBeUndefined();
  });

  it("does not keep what is not a cookie-free, public 200", async () => {
    const cache = new PageCache();
    expect(await cache.get("a", async () => page("no", { status: 404 }))).toBe("pass");
    expect(
      await cache.get("b", async () =>
        page("x", { headers: { "content-type": "text/html", "set-cookie": "a=1" } }),
      ),
    ).toBe("pass");
    expect(
      await cache.get("c", async () =>
        page("x", { headers: { "content-type": "text/html", "cache-control": "private, no-store" } }),
      ),
    ).toBe("pass");
  });

  it("a clear forgets stored pages and never stores a render that started before it", async () => {
    const cache = new PageCache();
    await cache.get("k", async () => page("viejo"));
    cache.clear();
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const slow = cache.get("k", async () => {
      await gate;
      return page("leído antes del cambio");
    });
    await new Promise((r) => setTimeout(r, 10));
    cache.clear();
    const fresh = await cache.get("k", async () => page("nuevo"));
    release();
    await slow;
    const after = await cache.get("k", async () => page("otro"));
    expect(fresh !== "pass" && fresh.page.bodies.identity.toString()).toBe("nuevo");
    expect(after !== "pass" && after.outcome).toBe("hit");
    expect(after !== "pass" && after.page.bodies.identity.toString()).toBe("nuevo");
  });

  it("stores gzip and brotli bodies that decode to the page, and a CSP hash of each inline script", async () => {
    const { gunzipSync, brotliDecompressSync } = await import("node:zlib");
    const cache = new PageCache();
    const html = `<html><body><p>${"oro ".repeat(500)}</p><script>go()</script></body></html>`;
    const result = await cache.get("k", async () => page(html));
    if (result === "pass") throw new Error("not stored");
    expect(gunzipSync(result.page.bodies.gzip).toString()).toBe(html);
    expect(brotliDecompressSync(result.page.bodies.br).toString()).toBe(html);
    expect(result.page.scriptHashes).toEqual([sha("go()")]);
  });
});
