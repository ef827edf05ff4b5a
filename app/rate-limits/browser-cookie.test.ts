import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { BROWSER_COOKIE, createBrowserCookies } from "./browser-cookie.server";

const cookies = createBrowserCookies("secreto-de-la-tienda-0123456789abcdef");
const header = (value: string) => `otra=1; ${BROWSER_COOKIE}=${value}; tema=oscuro`;

describe("the signed browser cookie", () => {
  it("a cookie the shop issued gives back its id, the 22 characters the shop stores", () => {
    const { id, value } = cookies.issue();
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(value).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect(value.startsWith(`${id}.`)).toBe(true);
    expect(cookies.idFrom(header(value))).toBe(id);
    expect(cookies.idFrom(`${BROWSER_COOKIE}=${value}`)).toBe(id);
    // Every one is new.
    expect(cookies.issue().id).not.toBe(id);
  });

  it("no cookie, an empty one or another shop's is no browser", () => {
    expect(cookies.idFrom(undefined)).toBeNull();
    expect(cookies.idFrom("")).toBeNull();
    expect(cookies.idFrom("otra=1")).toBeNull();
    expect(cookies.idFrom(`${BROWSER_COOKIE}=`)).toBeNull();
    const elsewhere = createBrowserCookies("otro-secreto-0123456789abcdef0123456").issue();
    expect(cookies.idFrom(header(elsewhere.value))).toBeNull();
  });

  it("the old unsigned cookie (22 characters alone) is no browser", () => {
    expect(cookies.idFrom(header(crypto.randomBytes(16).toString("base64url")))).toBeNull();
    expect(cookies.idFrom(header("prueba000001xxxxxxxxxx"))).toBeNull();
  });

  it("a forged or altered one is no browser", () => {
    const { id, value } = cookies.issue();
    const signature = value.slice(23);
    // Another id under a real signature; a made-up signature; one character changed anywhere.
    const otherId = cookies.issue().id;
    expect(cookies.idFrom(header(`${otherId}.${signature}`))).toBeNull();
    expect(cookies.idFrom(header(`${id}.${"A".repeat(43)}`))).toBeNull();
    for (const at of [0, 10, 21, 23, 40, 65]) {
      const swapped = value[at] === "A" ? "B" : "A";
      const altered = value.slice(0, at) + swapped + value.slice(at + 1);
      expect(cookies.idFrom(header(altered))).toBeNull();
    }
    // Malformed: cut short, grown, without its dot, with another separator, with spaces inside.
    expect(cookies.idFrom(header(value.slice(0, -1)))).toBeNull();
    expect(cookies.idFrom(header(`${value}A`))).toBeNull();
    expect(cookies.idFrom(header(value.replace(".", "")))).toBeNull();
    expect(cookies.idFrom(header(value.replace(".", "-")))).toBeNull();
    expect(cookies.idFrom(header(`${id}. ${signature}`))).toBeNull();
    // The HMAC of the id with the shop's secret itself (not the cookie's own key) is no signature.
    const withSecret = crypto
      .createHmac("sha256", "secreto-de-la-tienda-0123456789abcdef")
      .update(id)
      .digest("base64url");
    expect(cookies.idFrom(header(`${id}.${withSecret}`))).toBeNull();
  });

  it("a value already checked is remembered whole: its altered copies are still refused, and another process checks it anew", () => {
    const { id, value } = cookies.issue();
    for (let i = 0; i < 3; i++) expect(cookies.idFrom(header(value))).toBe(id);
    for (const at of [5, 30, 60]) {
      const altered = value.slice(0, at) + (value[at] === "A" ? "B" : "A") + value.slice(at + 1);
      expect(cookies.idFrom(header(altered))).toBeNull();
      // Refused again, not remembered as a browser.
      expect(cookies.idFrom(header(altered))).toBeNull();
    }
    // A second server with the same secret never issued it, and finds it signed all the same.
    expect(createBrowserCookies("secreto-de-la-tienda-0123456789abcdef").idFrom(header(value))).toBe(id);
    // Made-up values by the thousand are never kept: a real one still passes among them.
    for (let i = 0; i < 2_000; i++)
      cookies.idFrom(header(`${crypto.randomBytes(16).toString("base64url")}.${"A".repeat(43)}`));
    expect(cookies.idFrom(header(value))).toBe(id);
  });

  it("a forged cookie beside a real one does not hide it", () => {
    const { id, value } = cookies.issue();
    expect(cookies.idFrom(`${BROWSER_COOKIE}=prueba000001xxxxxxxxxx; ${BROWSER_COOKIE}=${value}`)).toBe(id);
  });
});
