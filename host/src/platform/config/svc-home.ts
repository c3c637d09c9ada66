import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { mkdirSync } from 'node:fs';

/** The data directory: `SVC_HOME`, else `~/.svc`. Created on first use with owner-only access. */
export function resolveSvcHome(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.SVC_HOME && env.SVC_HOME.trim() !== '' ? resolve(env.SVC_HOME) : join(homedir(), '.svc');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  return home;
}

export function databasePath(svcHome: string): string {
  return join(svcHome, 'svc.db');
}
