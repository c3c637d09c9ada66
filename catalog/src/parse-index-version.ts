// The index `version` a host compares to refuse rollbacks: a positive integer that grows with every
// publication. By default the build's Unix time in seconds, which grows without the publisher keeping
// a counter; an explicit value makes a build reproducible.
import { SvcError } from '@svc-org/ai-sdk';
import { CatalogSigningErrorCodes } from './catalog-signing-error-codes.js';

export function parseIndexVersion(value: string | undefined, now: Date): number {
  if (value === undefined) return Math.floor(now.getTime() / 1000);
  const trimmed = value.trim();
  if (!/^[1-9][0-9]*$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed))) {
    throw new SvcError({ code: CatalogSigningErrorCodes.indexVersionInvalid, message: `--index-version "${value}" must be a positive integer` });
  }
  return Number(trimmed);
}
