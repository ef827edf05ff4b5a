import { describe, expect, it } from "vitest";
import { isId, newId } from "./ids";

describe("ids", () => {
  it("every new id has the shape isId accepts", () => {
    for (let i = 0; i < 200; i++) {
      const id = newId();
      expect(id).toMatch(/^[a-km-np-z2-9]{16}$/);
      expect(isId(id)).toBe(true);
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
      "abcdefghijklmno\u0000",
      "abcdefghijklmnop\n",
      "../abcdefghijklm",
    ]) {
      expect(isId(bad), bad).toBe(false);
    }
  });
});
