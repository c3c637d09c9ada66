import { SvcError } from '@svc-org/ai-sdk';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `30d`, `12h`, `90m`: how long a new token lives, in milliseconds (at most ten years). */
export function parseTokenLifetime(value: string): number {
  const match = /^([1-9]\d{0,5})([mhd])$/.exec(value.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : NaN;
  if (!Number.isFinite(ms) || ms > 3650 * UNIT_MS.d) {
    throw new SvcError({
      code: 'invalid_request',
      message: `expires "${value}" is not a lifetime: write a whole number and a unit, m (minutes), h (hours) or d (days), e.g. 30d, at most 3650d`,
    });
  }
  return ms;
}
