// What a developer registration's folder says now: its version, name and permissions, read from
// package.json as it is on disk (the folder is edited in place, so the registered copy goes stale).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSemanticVersion } from '@svc-org/ai-sdk';

export interface DevManifestSummary {
  version: string;
  displayName: string;
  permissions: string[];
}

/** Undefined when package.json cannot be read or lacks these fields: preflight then says why, at the next load. */
export function readDevManifest(dir: string): DevManifestSummary | undefined {
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: unknown; svc?: { display?: { name?: unknown }; permissions?: unknown } };
    const { version } = pkg;
    const displayName = pkg.svc?.display?.name;
    const permissions = pkg.svc?.permissions;
    if (typeof version !== 'string' || !isSemanticVersion(version) || typeof displayName !== 'string') return undefined;
    if (!Array.isArray(permissions) || !permissions.every((p): p is string => typeof p === 'string')) return undefined;
    return { version, displayName, permissions };
  } catch {
    return undefined;
  }
}
