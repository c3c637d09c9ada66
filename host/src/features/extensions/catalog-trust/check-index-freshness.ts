// After the signature verified: a signed index must say which publication it is and until when it
// holds. An older publication than one already accepted is a rollback (an attacker replaying an index
// that lists a vulnerable version); a publication past its expiry is a freeze (a mirror serving the
// same index forever). Equal versions pass: the same index is read again and again until it changes.
import { SvcError } from '@svc-org/ai-sdk';
import type { CatalogIndex } from '../install/index.js';
import { InstallErrorCodes } from '@svc-org/extension-format/artifact';
import { CatalogTrustCodes } from './catalog-trust-codes.js';

export function checkIndexFreshness(index: CatalogIndex, now: Date, highestAccepted: number | undefined): { version: number; expires: string } {
  const { version, expires } = index;
  if (version === undefined || expires === undefined) {
    throw new SvcError({
      code: InstallErrorCodes.indexInvalid,
      message: 'the signed catalog index carries no version or no expires; rebuild it with pnpm extensions:catalog:build',
    });
  }
  if (Date.parse(expires) <= now.getTime()) {
    throw new SvcError({
      code: CatalogTrustCodes.expired,
      message: `the catalog index (version ${version}) expired at ${expires}; the publisher must rebuild and re-sign it, or the catalog is being served stale`,
      details: { version, expires },
    });
  }
  if (highestAccepted !== undefined && version < highestAccepted) {
    throw new SvcError({
      code: CatalogTrustCodes.rollback,
      message: `the catalog index has version ${version}, older than version ${highestAccepted} this host already accepted: an old index is being replayed`,
      details: { version, highestAccepted },
    });
  }
  return { version, expires };
}
