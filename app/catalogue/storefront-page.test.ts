import { describe, expect, it } from "vitest";
import { pageSeo } from "./storefront-page.server";

describe("a storefront page's SEO block", () => {
  it("makes the page's address and its preview image absolute, and names the shop", () => {
    expect(
      pageSeo("https://tienda.example", "Oro de Luna", {
        description: "Colección de invierno",
        path: "/coleccion/abc",
        image: "/media/drops/abc/foto-960.webp",
      }),
    ).toEqual({
      description: "Colección de invierno",
      url: "https://tienda.example/coleccion/abc",
      image: "https://tienda.example/media/drops/abc/foto-960.webp",
      shopName: "Oro de Luna",
    });
  });

  it("a page without an image of its own has the brand's; an image elsewhere keeps its own address", () => {
    const seo = (image: string | null) =>
      pageSeo("https://tienda.example", "Oro de Luna", { description: "", path: "/", image }).image;
    expect(seo(null)).toBe("https://tienda.example/brand/hero.jpg");
    expect(seo("https://cdn.example/a.webp")).toBe("https://cdn.example/a.webp");
  });
});
