// Call latencies are kept as a histogram, not as samples: bucket b holds calls that took at most
// 2^(b/4) ms (about 19 % apart), so an hour of calls is a few rows and percentiles merge by adding.

const PER_DOUBLING = 4;
const LAST_BUCKET = 4 * 24; // 2^24 ms: about 4.7 hours, past any deadline

/** The bucket of a latency in milliseconds. */
export function latencyBucket(ms: number): number {
  if (!(ms > 1)) return 0;
  return Math.min(LAST_BUCKET, Math.ceil(Math.log2(ms) * PER_DOUBLING));
}

/** The largest latency bucket `b` holds. */
export function bucketUpperMs(bucket: number): number {
  return 2 ** (bucket / PER_DOUBLING);
}

/**
 * The latency at quantile `q` (0.5, 0.95) of a histogram: the upper bound of the bucket it falls in,
 * never more than the largest latency seen. Undefined for no calls.
 */
export function latencyQuantile(histogram: ReadonlyMap<number, number>, q: number, maxMs: number): number | undefined {
  const total = [...histogram.values()].reduce((sum, n) => sum + n, 0);
  if (total === 0) return undefined;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const bucket of [...histogram.keys()].sort((a, b) => a - b)) {
    seen += histogram.get(bucket)!;
    if (seen >= rank) return Math.min(bucketUpperMs(bucket), maxMs);
  }
  return maxMs;
}
