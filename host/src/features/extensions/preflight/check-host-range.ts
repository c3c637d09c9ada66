// `compatibility.svc` against the running host, with npm's range rules (a prerelease host matches
// only ranges that name a prerelease of the same version).
import semver from 'semver';
import type { Manifest } from '@svc-org/ai-sdk';
import { checkFailed, type CheckResult, PreflightCodes } from '@svc-org/extension-format/manifest';
import { versionInRange } from './version-in-range.js';

export type HostRangeCheckResult = CheckResult<'host-range'>;

export function checkHostRange(manifest: Manifest, hostVersion: string): HostRangeCheckResult {
  const range = manifest.compatibility.svc;
  if (semver.validRange(range) === null) {
    return checkFailed(
      'host-range',
      PreflightCodes.manifestInvalid,
      `svc.compatibility.svc "${range}" is not a semver range`,
      'Write "svc.compatibility.svc" as a semver range, for example ">=0.3.0 <1.0.0"',
      { errors: [{ path: '/svc/compatibility/svc', message: 'must be a semver range' }] },
    );
  }
  if (!versionInRange('svc', hostVersion, range)) {
    return checkFailed(
      'host-range',
      PreflightCodes.hostIncompatible,
      `${manifest.id} needs svc ${range}; this host is ${hostVersion}`,
      `Use an svc host in ${range}, or install a version of ${manifest.id} made for svc ${hostVersion}`,
      { range, hostVersion },
    );
  }
  return { check: 'host-range', ok: true };
}
