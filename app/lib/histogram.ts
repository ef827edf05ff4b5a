/*
 * Quantiles from a histogram's cumulative buckets, as Prometheus' histogram_quantile computes
 * them: find the bucket the quantile's rank falls in and interpolate linearly inside it.
 */

/** A cumulative bucket: how many observations were at or under `le`. */
export interface Bucket {
  le: number;
  count: number;
}

/** The observations made between two reads of the same histogram (`before` may be null). */
export function bucketsBetween(before: readonly Bucket[] | null, after: readonly Bucket[]): Bucket[] {
  const earlier = new Map((before ?? []).map((b) => [b.le, b.count]));
  // A counter that went down started again (a process was replaced): its new count is the delta.
  return after.map((b) => {
    const delta = b.count - (earlier.get(b.le) ?? 0);
    return { le: b.le, count: delta < 0 ? b.count : delta };
  });
}

/**
 * The `q` quantile (0…1) of the observations counted in `buckets` (finite bounds, ascending) out
 * of `total` (the +Inf bucket). Null without observations; the highest bound when the quantile
 * lies beyond it (Prometheus answers the highest finite bound too).
 */
export function histogramQuantile(q: number, buckets: readonly Bucket[], total: number): number | null {
  if (total <= 0 || buckets.length === 0) return null;
  const rank = q * total;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const bucket of buckets) {
    if (bucket.count >= rank) {
      const inBucket = bucket.count - lowerCount;
      if (inBucket <= 0) return bucket.le;
      return lowerBound + ((bucket.le - lowerBound) * (rank - lowerCount)) / inBucket;
    }
    lowerBound = bucket.le;
    lowerCount = bucket.count;
  }
  return buckets[buckets.length - 1]?.le ?? null;
}
