import { describe, expect, it } from "vitest";
import { loadConfig } from "~/config/env.server";
import { isSameOrigin } from "./origin.server";

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
