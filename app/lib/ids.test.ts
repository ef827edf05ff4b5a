import { describe, expect, it } from "vitest";
import { isClientId, isId, newId } from "./ids";

describe("ids", () => {
  it("every new id has the shape isId accepts, and clients may send it", () => {
    for (let i = 0; i < 200; i++) {
      const id = newId();
      expect(id).toMatch(/^[a-km-np-z2-9]{16}$/);
      expect(isId(id)).toBe(true);
      expect(isClientId(id)).toBe(true);
    }
  });

  it("isId wants 16 lowercase letters or digits", () => {
    expect(isId("abcdefghijklmno0")).toBe(true);
    for (const bad of [
      "",
      "abc",
      "abcdefghijklmnop1",
      "ABCDEFGHIJKLMNOP",
      "abcdefgh/jklmnop",
      "abcdefghijklmno-",
    ]) {
      expect(isId(bad), bad).toBe(false);
    }
  });

  it("isClientId takes 1 to 64 lowercase letters or digits", () => {
    expect(isClientId("a")).toBe(true);
    expect(isClientId("a".repeat(64))).toBe(true);
    for (const bad of ["", "a".repeat(65), "Abc", "a b", "a-b", "../x", "a\n"]) {
      expect(isClientId(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});
