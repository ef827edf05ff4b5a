import { describe, expect, it } from "vitest";
import { escapeMarkup } from "./escape";

describe("escapeMarkup", () => {
  it("escapes the five characters that matter in HTML and XML, and nothing else", () => {
    expect(escapeMarkup(`<a href="x?a=1&b='2'">Añillo</a>`)).toBe(
      "&lt;a href=&quot;x?a=1&amp;b=&#39;2&#39;&quot;&gt;Añillo&lt;/a&gt;",
    );
    expect(escapeMarkup("https://tienda.mx/coleccion/abc")).toBe("https://tienda.mx/coleccion/abc");
  });
});
