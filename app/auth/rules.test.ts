import { describe, expect, it } from "vitest";
import { busyMessage, busyPage } from "./login-busy";
import { addressKey } from "./login-limits.server";
import { checkPassword } from "./password-policy";

describe("password policy", () => {
  it("asks for length, not composition", () => {
    expect(checkPassword("corta")).toMatch(/al menos 12/);
    expect(checkPassword("frase larga sin números")).toBeNull();
    expect(checkPassword("x".repeat(129))).toMatch(/más de 128/);
  });
});

describe("what the per-address login limit counts by", () => {
  it("IPv4 as it is, IPv6 by its /64", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:DB8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe(addressKey("2001:db8:1:2:ffff::2"));
  });
});

describe("what a sign-in refused because the shop is busy says", () => {
  it("how long to wait, in Spanish words", () => {
    expect(busyMessage(1)).toBe(
      "Hay demasiados intentos de inicio de sesión en este momento. Intenta de nuevo en 1 segundo.",
    );
    expect(busyMessage(2)).toMatch(/en 2 segundos\.$/);
    expect(busyMessage(60)).toMatch(/en 1 minuto\.$/);
    expect(busyMessage(61)).toMatch(/en 2 minutos\.$/);
    expect(busyPage(45)).toContain(busyMessage(45));
    expect(busyPage(45)).toContain('<a href="/login">');
  });
});
