import { PERMISSIONS, type Permission } from '@svc-org/ai-sdk';
import { SESSION_PERMISSION } from '../../platform/processes/index.js';
import { TRUST_NOTICE } from './describe-isolation.js';
import type { IsolationEnforcement } from './runtime/isolation-enforcement.js';

/** What the CLI will run once the person confirms: nothing of it runs before. */
export interface PromptCli {
  /** The executable found on disk (nothing was started to find it). */
  command: string;
  /** Where it was found: the connection's override, `command.default`, an alias or a known path. */
  source: string;
  /** The version probe run after confirmation, or null when it never runs (no `process:spawn` requested). */
  probe: { command: string; args: string[] } | null;
  /** The probe confirmed before, when the manifest now names another one. */
  previousProbe?: string;
  /** The same probe already ran under a grant confirmed before (a re-confirmation of a serving provider). */
  ranBefore?: boolean;
}

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
  /** The CLI executable and the exact probe that will run after confirmation. */
  cli?: PromptCli;
  /** What its interactive sessions start (`describeSessions`); absent when it declares none. */
  sessions?: string;
  /** How the provider will run and what that enforces on this machine. */
  isolation?: IsolationEnforcement;
  /** Every file and folder its integrations may read and write (the manifest's `integrationFiles`). */
  integrationFiles?: string[];
  /** What the permissions do and do not stop; shown with every prompt (CLI and web). */
  notice: string[];
}

/**
 * What the gates guard, as the Host Context declares it (HostMethods): starting processes, reading the
 * settings and editing integration files need a permission; the provider's own storage and the log
 * need none.
 */
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
    notice: [...TRUST_NOTICE],
  };
}

/**
 * What a provider's interactive sessions start, said wherever a person reviews its permissions (the
 * enable prompt, `svc ext show`, the web dialog); null for a provider that declares no sessions.
 */
export function describeSessions(capabilities: { sessions: { fresh: boolean; resume: boolean } }, permissions: readonly string[], cli: string | null): string | null {
  if (!capabilities.sessions.fresh && !capabilities.sessions.resume) return null;
  if (!permissions.includes(SESSION_PERMISSION)) {
    return `interactive sessions: none will start (a session starts the CLI as a process, which needs ${SESSION_PERMISSION}, not requested)`;
  }
  return `interactive sessions: start the CLI ${cli ?? '(not found yet)'} and nothing else, as you, in the task's folder, with arguments the provider chooses (needs ${SESSION_PERMISSION}); a CLI's arguments can make it run commands of its own`;
}
