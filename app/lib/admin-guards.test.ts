import { describe, expect, it } from "vitest";
import { loadConfig } from "~/config/env.server";
import { safeAdminPath } from "./admin-guards.server";
import { isAdminPath } from "./admin-path";
import { isSameOrigin } from "./origin.server";

describe("where /login may send the administrator back to", () => {
  it("admin pages, with their query", () => {
    expect(safeAdminPath("/admin/drops")).toBe("/admin/drops");
    expect(safeAdminPath("/admin/orders?estado=enviado")).toBe("/admin/orders?estado=enviado");
    expect(safeAdminPath("/admin")).toBe("/admin");
    // The orders desk's export and a search with spaces.
    expect(safeAdminPath("/admin/orders/exportar.csv?estado=enviado")).toBe(
      "/admin/orders/exportar.csv?estado=enviado",
    );
    expect(safeAdminPath("/admin/orders?q=renata+quiroga")).toBe("/admin/orders?q=renata+quiroga");
  });

  it("nothing outside the admin area or off the site", () => {
    for (const bad of [
      null,
      "",
      "/",
      "/colecciones",
      "//evil.example/admin",
      "https://evil.example/admin",
      "/admin//evil.example",
      "/admin/../colecciones",
      "/\\evil.example",
      "/administrador",
      "/admin/../login",
      "javascript:alert(1)",
    ]) {
      expect(safeAdminPath(bad), String(bad)).toBeNull();
    }
  });
});

describe("same-origin check for state-changing requests", () => {
  const config = loadConfig({
    DATA_DIR: "/tmp/unused",
    PUBLIC_URL: "https://tienda.example",
    DEMO_PAYMENTS: "true",
    SESSION_SECRET: "x".repeat(32),
  });
  const post = (headers: Record<string, string>) =>
    new Request("http://10.0.0.5:3000/admin/sessions", { method: "POST", headers });

  it("accepts the shop's public origin, the address the request came to, or a same-origin fetch", () => {
    expect(isSameOrigin(post({ origin: "https://tienda.example" }), config)).toBe(true);
    expect(isSameOrigin(post({ origin: "http://10.0.0.5:3000" }), config)).toBe(true);
    expect(isSameOrigin(post({ "sec-fetch-site": "same-origin" }), config)).toBe(true);
  });

  it("refuses other sites, opaque origins and requests that say nothing", () => {
    expect(isSameOrigin(post({ origin: "https://evil.example" }), config)).toBe(false);
    expect(isSameOrigin(post({ origin: "https://tienda.example.evil.example" }), config)).toBe(false);
    expect(isSameOrigin(post({ origin: "null" }), config)).toBe(false);
    expect(isSameOrigin(post({ "sec-fetch-site": "same-site" }), config)).toBe(false);
    expect(isSameOrigin(post({}), config)).toBe(false);
    // The checkout endpoint lets a request that says nothing through (it holds no session).
    expect(isSameOrigin(post({}), config, { allowUnknown: true })).toBe(true);
  });
});

describe("the admin area's paths", () => {
  it("are /admin and what is below it", () => {
    expect(isAdminPath("/admin")).toBe(true);
    expect(isAdminPath("/admin/orders")).toBe(true);
    expect(isAdminPath("/administrador")).toBe(false);
    expect(isAdminPath("/")).toBe(false);
  });
});
