import { describe, expect, it } from "vitest";
import { addressKey, emailKey } from "./buyer-keys";

describe("the per-person limit's keys", () => {
  it("an e-mail is one key however it is typed", () => {
    expect(emailKey("  Ana.Perez@Example.MX ")).toBe("ana.perez@example.mx");
    expect(emailKey("ana.perez@example.mx")).toBe(emailKey("ANA.PEREZ@EXAMPLE.MX"));
    expect(emailKey("")).toBeNull();
    expect(emailKey("   ")).toBeNull();
    expect(emailKey(null)).toBeNull();
  });

  it("an address is line 1, postal code and country, folded", () => {
    const a = addressKey({ line1: "Calle Macedonio Alcalá #401", postalCode: "68000", country: "MX" });
    expect(a).toBe("c macedonio alcala 401|68000|mx");
    for (const same of [
      { line1: "calle macedonio alcala 401", postalCode: " 68000 ", country: "mx" },
      { line1: "C. Macedonio  Alcalá, No. 401", postalCode: "68000", country: "MX" },
      { line1: "CALLE MACEDONIO ALCALÁ NÚM. 401", postalCode: "68000", country: "" },
    ]) {
      expect(addressKey(same), same.line1).toBe(a);
    }
    expect(addressKey({ line1: "Avenida Juárez 10", postalCode: "06000", country: "MX" })).toBe(
      addressKey({ line1: "Av. Juarez 10", postalCode: "06000", country: "MX" }),
    );
    // Words named like an object's own members are street names like any other.
    expect(addressKey({ line1: "Av. Constructor 12", postalCode: "06000", country: "MX" })).toBe(
      "av constructor 12|06000|mx",
    );
  });

  it("another number, postal code or country is another address", () => {
    const a = addressKey({ line1: "Macedonio Alcalá 401", postalCode: "68000", country: "MX" });
    expect(addressKey({ line1: "Macedonio Alcalá 403", postalCode: "68000", country: "MX" })).not.toBe(a);
    expect(addressKey({ line1: "Macedonio Alcalá 401", postalCode: "68050", country: "MX" })).not.toBe(a);
    expect(addressKey({ line1: "Macedonio Alcalá 401", postalCode: "68000", country: "US" })).not.toBe(a);
  });

  it("no street, no key", () => {
    expect(addressKey(null)).toBeNull();
    expect(addressKey({ line1: " #, ", postalCode: "68000", country: "MX" })).toBeNull();
  });
});
