// Preflight of a catalog release before it may become an installed version: every check, with the
// catalog's id and version expected. A CLI that is not installed yet does not block (the user installs
// it; enabling checks it again); any other failure refuses the release with the check's own code.
import type { Manifest, ProviderPackage } from '@svc-org/ai-sdk';
import { SvcError } from '@svc-org/ai-sdk';
import { runPreflight, type CheckFailure, type PreflightOptions } from '../preflight/index.js';

export interface PreflightedRelease {
  pkg: ProviderPackage;
  manifest: Manifest;
  /** Checks that failed without blocking. */
  warnings: CheckFailure[];
}

export async function preflightRelease(
  packageDir: string,
  release: { id: string; version: string },
  options: Omit<PreflightOptions, 'mode' | 'expected'>,
): Promise<PreflightedRelease> {
  const report = await runPreflight(packageDir, { ...options, expected: { id: release.id, version: release.version }, mode: 'all' });
  const failures = report.checks.filter((check): check is CheckFailure => !check.ok);
  const blocking = failures.filter((failure) => failure.check !== 'cli-dependency');
  if (blocking.length > 0 || !report.pkg || !report.manifest) {
    const first = blocking[0];
    throw new SvcError({
      code: first?.code ?? 'preflight_failed',
      message: `${release.id} ${release.version} failed preflight: ${first?.message ?? 'its manifest is invalid'}`,
      details: first ? { check: first.check, fix: first.fix } : undefined,
    });
  }
  return { pkg: report.pkg, manifest: report.manifest, warnings: failures };
}
