import { describe, expect, it } from "vitest";
import { msToNextSecond, nextInstant, offsetFromSample, roughOffset } from "./server-clock";

describe("the server's clock in the browser", () => {
  it("takes the middle of the round trip", () => {
    // Sent at 1000, answered at 1200 by a server reading 5_000_100: the server is ~5 s ahead.
    expect(offsetFromSample(1_000, 5_000_100, 1_200)).toBe(4_999_000);
    expect(offsetFromSample(10_000, 10_050, 10_100)).toBe(0);
    // A phone seven minutes fast gets a negative offset.
    expect(offsetFromSample(420_000 + 100, 100 + 20, 420_000 + 140)).toBe(-420_000);
  });

  it("guesses from the page's render time only past what a cached page's age explains", () => {
    expect(roughOffset(10_000, 11_500)).toBe(0);
    expect(roughOffset(10_000, 12_999)).toBe(0);
    expect(roughOffset(10_000, 10_000 + 7 * 60_000)).toBe(-7 * 60_000);
    expect(roughOffset(10_000 + 5 * 60_000, 10_000)).toBe(5 * 60_000);
  });

  it("waits to the next whole second", () => {
    expect(msToNextSecond(12_000)).toBe(1000);
    expect(msToNextSecond(12_001)).toBe(999);
    expect(msToNextSecond(12_999)).toBe(1);
  });

  it("finds the next instant strictly after now", () => {
    expect(nextInstant([3_000, 1_000, 2_000], 1_000)).toBe(2_000);
    expect(nextInstant([3_000, 1_000, 2_000], 500)).toBe(1_000);
    expect(nextInstant([3_000], 3_000)).toBeNull();
    expect(nextInstant([], 0)).toBeNull();
  });
});
