import { randomUUID } from 'node:crypto';

/**
 * A UUID version 7 (RFC 9562): 48 bits of milliseconds, then random bits (taken from randomUUID, which
 * draws from a cached entropy pool). Outbox ids are idempotency keys that must be unique everywhere;
 * time order keeps inserts at one end of any index over them.
 */
export function timeOrderedId(now: number = Date.now()): string {
  // randomUUID() is xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx: its random hex digits are taken by
  // position (no copy without the dashes), the version becomes 7 and V keeps its two low bits.
  const random = randomUUID();
  const time = now.toString(16).padStart(12, '0').slice(-12);
  const variant = ((parseInt(random[19]!, 16) & 0x3) | 0x8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(15, 18)}-${variant}${random.slice(20, 23)}-${random.slice(24)}`;
}
