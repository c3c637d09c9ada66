// SOURCE_DATE_EPOCH (reproducible-builds.org): when a packager sets it, the build takes its clock from
// it, so the default index version and expiry, like everything else in the output, repeat byte for byte.
import { SvcError } from '@svc-org/ai-sdk';
import { CatalogSigningErrorCodes } from './catalog-signing-error-codes.js';

/** The build's clock from SOURCE_DATE_EPOCH (whole seconds since 1970, UTC), or undefined when unset. */
export function parseSourceDateEpoch(value: string | undefined): Date | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^[0-9]{1,12}$/.test(value.trim()) || Number(value) === 0) {
    throw new SvcError({
      code: CatalogSigningErrorCodes.sourceDateEpochInvalid,
      message: `SOURCE_DATE_EPOCH "${value}" must be a positive number of seconds since 1970-01-01T00:00:00Z`,
    });
  }
  return new Date(Number(value.trim()) * 1000);
}
