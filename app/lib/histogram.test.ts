import { describe, expect, it } from "vitest";
import { bucketsBetween, histogramQuantile } from "./histogram";

describe("histogramQuantile", () => {
  const bounds = [0.001, 0.005, 0.01, 0.05, 0.1];

  it("interpolates inside the bucket the rank falls in", () => {
    // 100 answers: 90 under 5 ms, 9 between 5 and 10 ms, 1 between 50 and 100 ms.
    const buckets = [0, 90, 99, 99, 100].map((count, i) => ({ le: bounds[i] ?? 0, count }));
    expect(histogramQuantile(0.5, buckets, 100)).toBeCloseTo(0.001 + (0.004 * 50) / 90);
    expect(histogramQuantile(0.99, buckets, 100)).toBeCloseTo(0.01);
    expect(histogramQuantile(0.995, buckets, 100)).toBeCloseTo(0.05 + 0.05 * 0.5);
  });

  it("says nothing without answers, and the highest bound past it", () => {
    expect(histogramQuantile(0.99, [], 0)).toBeNull();
    expect(histogramQuantile(0.99, [{ le: 0.1, count: 0 }], 3)).toBe(0.1);
  });
});

describe("bucketsBetween", () => {
  it("is what was counted between two reads; a count that went down started again", () => {
    const before = [
      { le: 0.01, count: 5 },
      { le: 0.1, count: 8 },
    ];
    const after = [
      { le: 0.01, count: 7 },
      { le: 0.1, count: 3 },
    ];
    expect(bucketsBetween(before, after)).toEqual([
      { le: 0.01, count: 2 },
      { le: 0.1, count: 3 },
    ]);
    expect(bucketsBetween(null, after)).toEqual(after);
  });
});
