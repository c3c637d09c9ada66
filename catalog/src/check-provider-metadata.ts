// The build refuses what the installer would refuse: it runs the host's own preflight checks of the
// package metadata (the same functions an install runs in staging), so nothing it publishes can be
// refused at install for its manifest, entry or config schema.
import { SvcError, type ProviderPackage } from '@svc-org/ai-sdk';
import {
  checkConfigSchema,
  checkEntry,
  checkManifest,
  checkPermissions,
  type CheckFailure,
  type CheckResult,
} from '@svc-org/extension-format/manifest';
import { CatalogErrorCodes } from './catalog-error-codes.js';

/** Before the build: package.json and its manifest, as preflight reads them. */
export async function checkProviderManifest(providerDir: string): Promise<ProviderPackage> {
  const manifest = await checkManifest(providerDir);
  if (!manifest.ok) throw refused(providerDir, manifest);
  const permissions = checkPermissions(manifest.pkg.svc);
  if (!permissions.ok) throw refused(providerDir, permissions);
  return manifest.pkg;
}

/** After the build: the entry file and the config schema the artifact will carry. */
export async function checkBuiltProvider(providerDir: string, pkg: ProviderPackage): Promise<void> {
  const checks: Array<() => Promise<CheckResult>> = [() => checkEntry(providerDir, pkg), () => checkConfigSchema(providerDir, pkg.svc)];
  for (const check of checks) {
    const result = await check();
    if (!result.ok) throw refused(providerDir, result);
  }
}

function refused(providerDir: string, failure: CheckFailure): SvcError {
  return new SvcError({
    code: CatalogErrorCodes.manifestInvalid,
    message: `${providerDir}: an install would refuse this provider (${failure.code}): ${failure.message}. Fix: ${failure.fix}`,
    details: { providerDir, check: failure.check, installCode: failure.code, fix: failure.fix },
  });
}
