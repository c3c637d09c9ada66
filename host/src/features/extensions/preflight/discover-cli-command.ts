// Where the CLI is looked for, in order: the connection's command override, `command.default`, each
// of `command.aliases`, then `command.knownPaths[platform]`. A bare name is looked up on PATH; a
// path must be absolute (after `~` expansion). The first executable file found wins. An override is
// the person's choice: when it is not there, nothing else is tried (running some other executable
// found on PATH instead would silently ignore it).
// Only files are looked at here: nothing is started.
import { isAbsolute, join, win32 } from 'node:path';
import type { Manifest } from '@svc-org/ai-sdk';
import { findOnPath } from './find-on-path.js';
import { isExecutableFile } from './is-executable-file.js';

export type CommandSource = 'override' | 'default' | 'alias' | 'known-path';

export interface CommandAttempt {
  source: CommandSource;
  /** As written in the manifest or the override. */
  candidate: string;
  /** Files looked at for it (PATH entries for a name); empty when the candidate was unusable. */
  looked: string[];
  /** Why a candidate was skipped without looking, when it was. */
  skipped?: string;
}

export type CommandDiscovery =
  | { found: true; command: string; source: CommandSource; candidate: string; tried: CommandAttempt[] }
  | { found: false; tried: CommandAttempt[] };

export interface DiscoveryOptions {
  platform: NodeJS.Platform;
  homeDir: string;
  env: Record<string, string | undefined>;
  commandOverride?: string;
}

function expandHome(candidate: string, homeDir: string): string {
  if (candidate === '~') return homeDir;
  if (candidate.startsWith('~/') || candidate.startsWith('~\\')) return join(homeDir, candidate.slice(2));
  return candidate;
}

export async function discoverCliCommand(command: Manifest['command'], options: DiscoveryOptions): Promise<CommandDiscovery> {
  const windows = options.platform === 'win32';
  const candidates: Array<{ source: CommandSource; candidate: string }> = [
    ...(options.commandOverride ? [{ source: 'override' as const, candidate: options.commandOverride }] : []),
    { source: 'default', candidate: command.default },
    ...command.aliases.map((candidate) => ({ source: 'alias' as const, candidate })),
    ...(command.knownPaths[options.platform as keyof Manifest['command']['knownPaths']] ?? []).map((candidate) => ({
      source: 'known-path' as const,
      candidate,
    })),
  ];

  const tried: CommandAttempt[] = [];
  const seen = new Set<string>();
  for (const { source, candidate } of candidates) {
    if (source !== 'override' && tried.some((attempt) => attempt.source === 'override')) break;
    if (seen.has(candidate)) continue;
    seen.add(candidate);
    const expanded = expandHome(candidate, options.homeDir);
    const isPath = expanded.includes('/') || (windows && expanded.includes('\\'));
    if (!isPath) {
      const lookup = await findOnPath(expanded, options.env, options.platform);
      tried.push({ source, candidate, looked: lookup.tried });
      if (lookup.found) return { found: true, command: lookup.found, source, candidate, tried };
      continue;
    }
    if (!(windows ? win32.isAbsolute(expanded) : isAbsolute(expanded))) {
      tried.push({ source, candidate, looked: [], skipped: 'a path must be absolute (or start with ~/)' });
      continue;
    }
    tried.push({ source, candidate, looked: [expanded] });
    if (await isExecutableFile(expanded)) return { found: true, command: expanded, source, candidate, tried };
  }
  return { found: false, tried };
}
