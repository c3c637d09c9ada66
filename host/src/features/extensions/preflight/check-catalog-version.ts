// An install from the catalog names an exact id and version; the package it unpacked must be that one.
import type { ProviderPackage } from '@svc-org/ai-sdk';
import { checkFailed, type CheckResult, PreflightCodes } from '@svc-org/extension-format/manifest';

export interface ExpectedRelease {
  id: string;
  version: string;
}

export type CatalogVersionCheckResult = CheckResult<'catalog-version'>;

export function checkCatalogVersion(pkg: ProviderPackage, expected: ExpectedRelease): CatalogVersionCheckResult {
  const found = { id: pkg.svc.id, version: pkg.version };
  if (found.id !== expected.id || found.version !== expected.version) {
    return checkFailed(
      'catalog-version',
      PreflightCodes.catalogVersionMismatch,
      `the package is ${found.id}@${found.version}, but the catalog declares ${expected.id}@${expected.version}`,
      'Rebuild the catalog so its declaration matches the package, or install the version the catalog declares',
      { expected, found },
    );
  }
  return { check: 'catalog-version', ok: true };
}
