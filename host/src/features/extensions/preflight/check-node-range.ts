// `compatibility.node` against the Node.js that will run the plugin's worker.
import semver from 'semver';
import type { Manifest } from '@svc-org/ai-sdk';
import { checkFailed, type CheckResult, PreflightCodes } from '@svc-org/extension-format/manifest';
import { versionInRange } from './version-in-range.js';

export type NodeRangeCheckResult = CheckResult<'node-range'>;

export function checkNodeRange(manifest: Manifest, nodeVersion: string): NodeRangeCheckResult {
  const range = manifest.compatibility.node;
  if (semver.validRange(range) === null) {
    return checkFailed(
      'node-range',
      PreflightCodes.manifestInvalid,
      `svc.compatibility.node "${range}" is not a semver range`,
      'Write "svc.compatibility.node" as a semver range, for example ">=20"',
      { errors: [{ path: '/svc/compatibility/node', message: 'must be a semver range' }] },
    );
  }
  if (!versionInRange('node', nodeVersion, range)) {
    return checkFailed(
      'node-range',
      PreflightCodes.nodeIncompatible,
      `${manifest.id} needs Node.js ${range}; the host runs Node.js ${nodeVersion}`,
      `Run svc with a Node.js version in ${range}, or install a version of ${manifest.id} that supports Node.js ${nodeVersion}`,
      { range, nodeVersion },
    );
  }
  return { check: 'node-range', ok: true };
}
