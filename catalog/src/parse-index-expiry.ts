// When a built index expires: an absolute UTC time, or a lifetime from the build (`30d`, `12h`). A host
// that pins keys refuses the index after it, so a mirror that keeps serving an old signed index is
// noticed within that lifetime; publishers rebuild (and re-sign) before it runs out.
import { SvcError } from '@svc-org/ai-sdk';
import { CatalogSigningErrorCodes } from './catalog-signing-error-codes.js';

export const DEFAULT_INDEX_LIFETIME = '30d';
const HOUR_MS = 3_600_000;

/** Returns the expiry as `YYYY-MM-DDTHH:MM:SSZ`; it must lie after `now`. */
export function parseIndexExpiry(value: string, now: Date): string {
  const lifetime = /^([1-9][0-9]{0,5})([dh])$/.exec(value.trim());
  const at = lifetime
    ? new Date(now.getTime() + Number(lifetime[1]) * (lifetime[2] === 'd' ? 24 * HOUR_MS : HOUR_MS))
    : /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,3})?Z$/.test(value.trim())
      ? new Date(value.trim())
      : undefined;
  if (at === undefined || Number.isNaN(at.getTime())) {
    throw new SvcError({
      code: CatalogSigningErrorCodes.expiresInvalid,
      message: `--expires "${value}" is neither a lifetime (<days>d or <hours>h) nor a UTC time (YYYY-MM-DDTHH:MM:SSZ)`,
    });
  }
  if (at.getTime() <= now.getTime()) {
    throw new SvcError({ code: CatalogSigningErrorCodes.expiresInvalid, message: `--expires ${value} is not in the future` });
  }
  // Whole seconds: the index carries no false precision.
  return new Date(Math.floor(at.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
