import { PERMISSIONS, type Permission } from '@svc-org/ai-sdk';

/** What the user is asked to confirm before an extension may load. */
export interface PermissionPrompt {
  id: string;
  displayName: string;
  version: string;
  requested: Array<{ name: string; description: string; new: boolean }>;
  /** Granted before but no longer requested (they will be dropped). */
  dropped: string[];
  /** Set when `version` is a staged update: the version that serves until it is confirmed. */
  currentVersion?: string;
}

export function buildPermissionPrompt(
  id: string,
  displayName: string,
  version: string,
  requested: readonly string[],
  granted: readonly string[],
): PermissionPrompt {
  const had = new Set(granted);
  return {
    id,
    displayName,
    version,
    requested: [...new Set(requested)].sort().map((name) => ({
      name,
      description: PERMISSIONS[name as Permission] ?? 'unknown permission',
      new: !had.has(name),
    })),
    dropped: granted.filter((name) => !requested.includes(name)).sort(),
  };
}
