import { describe, expect, it } from "vitest";
import { isAdminPath, PATHS, pathPattern, routePath, safeAdminPath, withDataRequest } from "./paths";

describe("the addresses the router and the edge share", () => {
  it("matches a pattern's pages and their data requests, one segment per parameter", () => {
    const collection = pathPattern(PATHS.collection);
    expect(collection.test("/coleccion/luna")).toBe(true);
    expect(collection.test("/coleccion/luna.data")).toBe(true);
    expect(collection.test("/coleccion/luna/otra")).toBe(false);
    expect(collection.test("/coleccion/")).toBe(false);
    const product = pathPattern(PATHS.product);
    expect(product.test("/drop/d1/product/p1")).toBe(true);
    expect(product.test("/drop/d1/product/p1.data")).toBe(true);
    expect(product.test("/drop/d1/product")).toBe(false);
  });

  it("writes paths as the route table does, and names their data requests", () => {
    expect(routePath(PATHS.loginCode)).toBe("login/codigo");
    expect(routePath(PATHS.adminMedia, "/admin")).toBe("media");
    expect(withDataRequest(PATHS.login)).toEqual(["/login", "/login.data"]);
  });
});

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

describe("the admin area's paths", () => {
  it("are /admin and what is below it", () => {
    expect(isAdminPath("/admin")).toBe(true);
    expect(isAdminPath("/admin/orders")).toBe(true);
    expect(isAdminPath("/administrador")).toBe(false);
    expect(isAdminPath("/")).toBe(false);
  });
});
