// Whether a registered provider serves calls and may have its CLI probed: the rules the lifecycle,
// the calls and the quarantine share.
import type { Manifest } from '@svc-org/ai-sdk';
import { PreflightCodes } from './preflight/index.js';
import { probeFingerprint } from './probe-fingerprint.js';
import type { ExtensionRecord } from './registry/index.js';

/** The permission under which the CLI's version probe runs. */
export const PROBE_PERMISSION = 'process:spawn';

/** The CLI codes a later call may recover from by itself once the CLI is right. */
const CLI_CODES: ReadonlySet<string> = new Set([
  PreflightCodes.cliNotFound,
  PreflightCodes.cliProbeFailed,
  PreflightCodes.cliProbeTimeout,
  PreflightCodes.cliVersionUnreadable,
  PreflightCodes.cliIncompatible,
]);

/**
 * Whether calls are served: enabled, or the current version of an update that waits; with
 * `orCliBroken`, also a provider that is broken only because its CLI failed the probe after enabling.
 */
export function isServing(record: ExtensionRecord, orCliBroken = false): boolean {
  if (record.state === 'enabled' || (record.state === 'needs-confirmation' && record.pendingVersion !== undefined)) return true;
  return orCliBroken && record.state === 'broken' && record.error !== undefined && CLI_CODES.has(record.error.code);
}

/**
 * Whether the CLI's version probe may run: the person confirmed a grant that includes `process:spawn`.
 * A staged update waiting for confirmation leaves the current version serving with its confirmed
 * probe (isServing); a provider waiting for confirmation with nothing staged is not serving. Which
 * probe runs is checked against the confirmed one where the preflight runs (isConfirmedProbe).
 */
export function mayProbe(record: ExtensionRecord): boolean {
  return isServing(record, true) && record.grantedPermissions.includes(PROBE_PERMISSION);
}

/** Whether the manifest names the probe the person confirmed (a grant from before probes were kept trusts the one there). */
export function isConfirmedProbe(record: ExtensionRecord, manifest: Manifest): boolean {
  return record.confirmedProbe === undefined || record.confirmedProbe === probeFingerprint(manifest);
}
