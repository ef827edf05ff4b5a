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

  it("ids drawn from the same random block, of any length, never repeat", () => {
    const seen = new Set<string>();
    // Several blocks' worth (4 KB each), with lengths that do not divide it.
    for (let i = 0; i < 5_000; i++) seen.add(newId([16, 8, 24, 7][i % 4]));
    expect(seen.size).toBe(5_000);
    expect(newId(100)).toMatch(/^[a-km-np-z2-9]{100}$/);
    for (const bad of [5_000, 0, -3, 1.5, Number.NaN]) expect(() => newId(bad)).toThrow(RangeError);
    // None of them moved the block back: what follows is still new.
    expect(seen.has(newId(16))).toBe(false);
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
