import { randomUUID } from 'node:crypto';

/**
 * A UUID version 7 (RFC 9562): 48 bits of milliseconds, then random bits (taken from randomUUID, which
 * draws from a cached entropy pool). Outbox ids are idempotency keys that must be unique everywhere;
 * time order keeps inserts at one end of any index over them.
 */
export function timeOrderedId(now: number = Date.now()): string {
  const random = randomUUID().replace(/-/g, '');
  const time = now.toString(16).padStart(12, '0').slice(-12);
  const variant = ((parseInt(random[16]!, 16) & 0x3) | 0x8).toString(16);
  const hex = `${time}7${random.slice(13, 16)}${variant}${random.slice(17, 32)}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
