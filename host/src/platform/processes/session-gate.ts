// A session process is a spawn like any other: what a provider's buildSessionProcess() names runs
// only through this gate, and only the gate's answer reaches a terminal (spawnPty refuses anything
// else). A platform piece: the terminals and the extension calls both use it.
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { SvcError, type SessionProcessSchema } from '@svc-org/ai-sdk';
import type { z } from 'zod';
import { filterProviderEnvPatch } from './child-env.js';
import type { Logger } from '../logging/index.js';

/** The permission a provider needs to start its CLI in a terminal, as for any process it names. */
export const SESSION_PERMISSION = 'process:spawn';

type SessionDescription = z.output<typeof SessionProcessSchema>;

/** A session process the host checked: the confirmed CLI, the host's folder, a filtered environment. */
export interface GatedSessionProcess {
  readonly providerId: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly envPatch: Readonly<Record<string, string>>;
  readonly initialInput?: string;
  readonly files: ReadonlyArray<{ name: string; content: string }>;
  readonly unsupportedAttachments: NonNullable<SessionDescription['unsupportedAttachments']>;
}

/** What the gate checks a description against: who asks, what was granted and confirmed, where it runs. */
export interface SessionGrant {
  providerId: string;
  granted: ReadonlySet<string>;
  /** The connection's resolved CLI (the person's override or the one found and probed). */
  cli: string;
  /** Where the host runs the session: the task's worktree or project folder, or the person's folder. */
  cwd: string;
}

const gated = new WeakSet<GatedSessionProcess>();

/** Refuses, before the provider is even asked, a provider that may not start processes. */
export function requireSessionPermission(grant: Pick<SessionGrant, 'providerId' | 'granted'>): void {
  if (grant.granted.has(SESSION_PERMISSION)) return;
  throw new SvcError({
    code: 'permission_denied',
    message: `${grant.providerId} may not start an interactive session: that starts a process, and "${SESSION_PERMISSION}" was not granted`,
    pluginId: grant.providerId,
    details: {
      permission: SESSION_PERMISSION,
      fix: `if you trust it to start its CLI, run \`svc ext enable ${grant.providerId}\` with a version that requests ${SESSION_PERMISSION}, and confirm it`,
    },
  });
}

/**
 * The one gate between a provider's session description and a process: `process:spawn` granted,
 * the executable the person confirmed (the connection's resolved CLI), the folder the host chose,
 * and the environment patch filtered as every `process:spawn` call's is.
 */
export function gateSessionProcess(grant: SessionGrant, description: SessionDescription, logger?: Logger): GatedSessionProcess {
  requireSessionPermission(grant);
  if (!sameExecutable(description.command, grant.cli)) {
    throw new SvcError({
      code: 'session_command_refused',
      message: `${grant.providerId} asked to start ${description.command} in a terminal, but a session may start only its confirmed CLI (${grant.cli})`,
      pluginId: grant.providerId,
      details: { fix: `the provider must return the CLI it was given (ctx.cli.command); to run another executable, set it as the connection's CLI path` },
    });
  }
  if (resolve(description.cwd) !== resolve(grant.cwd)) {
    throw new SvcError({
      code: 'session_cwd_refused',
      message: `${grant.providerId} asked to run its session in ${description.cwd}; svc runs it in ${grant.cwd}`,
      pluginId: grant.providerId,
      details: { fix: 'the provider must return the folder it was given (request.cwd)' },
    });
  }
  const env = filterProviderEnvPatch(description.envPatch);
  if (env.dropped.length > 0) logger?.warn('provider environment variables left out of a session', { plugin: grant.providerId, dropped: env.dropped });
  const session: GatedSessionProcess = Object.freeze({
    providerId: grant.providerId,
    // The CLI as the host resolved it, not the spelling the provider used.
    command: grant.cli,
    args: Object.freeze([...description.args]),
    cwd: grant.cwd,
    envPatch: Object.freeze(env.env),
    ...(description.initialInput !== undefined ? { initialInput: description.initialInput } : {}),
    files: Object.freeze([...(description.files ?? [])]),
    unsupportedAttachments: description.unsupportedAttachments ?? [],
  });
  gated.add(session);
  return session;
}

/** Whether `value` came out of gateSessionProcess (a copy or a cast does not). */
export function isGatedSessionProcess(value: unknown): value is GatedSessionProcess {
  return typeof value === 'object' && value !== null && gated.has(value as GatedSessionProcess);
}

function sameExecutable(requested: string, confirmed: string): boolean {
  if (requested === confirmed) return true;
  // Only a path names a file; a bare name would be looked up on PATH, which the person did not confirm.
  if (!requested.includes('/')) return false;
  try {
    return realpathSync(requested) === realpathSync(confirmed);
  } catch {
    return false;
  }
}
