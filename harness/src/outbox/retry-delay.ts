export const RETRY_BASE_MS = 2_000;
export const RETRY_CAP_MS = 5 * 60_000;

/**
 * Delay before attempt `attempts + 1` after an explicit failure: exponential from 2 s, capped at
 * 5 minutes, with ±20 % jitter so entries that failed together do not retry together.
 */
export function retryDelay(attempts: number, random: () => number = Math.random): number {
  const exponential = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(exponential * (0.8 + 0.4 * random()));
}
