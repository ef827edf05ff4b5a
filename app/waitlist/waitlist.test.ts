import { describe, expect, it } from "vitest";
import { createWaitlistLinks, waitlistUrls } from "./links.server";
import { parseConsent, parseEmail, takesSignUps } from "./sign-up-input";

describe("'Avísame' input", () => {
  it("keeps an address trimmed and in lower case, and refuses what is not one", () => {
    expect(parseEmail("  Ana.Pérez@Example.MX ")).toBeNull(); // accents are not in zod's address pattern
    expect(parseEmail("  Ana.Perez@Example.MX ")).toBe("ana.perez@example.mx");
    for (const bad of ["", "ana", "ana@example", "ana@@example.mx", 3, null]) {
      expect(parseEmail(bad)).toBeNull();
    }
  });

  it("consent is the ticked box", () => {
    expect(parseConsent("si")).toBe(true);
    expect(parseConsent(null)).toBe(false);
    expect(parseConsent("")).toBe(false);
  });

  it("only an upcoming drop that is not archived takes sign-ups", () => {
    const now = new Date("2026-11-01T12:00:00Z");
    const dates = { startAt: new Date("2026-11-02T00:00:00Z"), endAt: new Date("2026-11-03T00:00:00Z") };
    expect(takesSignUps({ ...dates, status: "proximamente" }, now)).toBe(true);
    expect(takesSignUps({ ...dates, status: "archivada" }, now)).toBe(false);
    expect(takesSignUps({ ...dates, status: "activa" }, new Date("2026-11-02T00:00:00Z"))).toBe(false);
  });
});

describe("'Avísame' links", () => {
  const links = createWaitlistLinks("x".repeat(40));
  it("a token names its subscription for its purpose only", () => {
    const token = links.sign("baja", "abcdefghijklmnop");
    expect(links.verify("baja", token)).toBe("abcdefghijklmnop");
    expect(links.verify("confirmar", token)).toBeNull();
    expect(createWaitlistLinks("y".repeat(40)).verify("baja", token)).toBeNull();
    for (const bad of [
      null,
      "",
      "abcdefghijklmnop",
      `${token}.x`,
      token.slice(0, -1),
      `ABCDEFGHIJKLMNOP.${token.split(".")[1]}`,
    ]) {
      expect(links.verify("baja", bad)).toBeNull();
    }
  });

  it("links go to the shop's own pages", () => {
    const urls = waitlistUrls(links, "https://tienda.mx/", "abcdefghijklmnop");
    expect(urls.confirm).toMatch(/^https:\/\/tienda\.mx\/avisame\/confirmar\?t=abcdefghijklmnop\./);
    expect(urls.unsubscribe).toMatch(/^https:\/\/tienda\.mx\/avisame\/baja\?t=abcdefghijklmnop\./);
  });
});
