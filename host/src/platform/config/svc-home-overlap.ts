import { realpathSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';

/** What the service keeps in SVC_HOME: its credentials, database, logs, run folders, signal files, extensions and task worktrees (each an agent's). */
const SERVICE_ENTRIES = ['token', 'server.json', 'svc.db', 'svc.db-wal', 'svc.db-shm', 'logs', 'runs', 'signals', 'extensions', 'worktrees'];

/**
 * How a folder overlaps the service's data folder, compared by real paths (a symbolic link does not
 * get around it): it `is` SVC_HOME, `holds` it, or lies `inside` one of the service's own entries
 * there (a folder of its own inside SVC_HOME, such as a cloned remote project, is clear of it).
 */
export function svcHomeOverlap(folder: string, svcHome: string): 'is' | 'holds' | 'inside' | undefined {
  const path = realPath(folder);
  const home = realPath(svcHome);
  if (path === home) return 'is';
  if (within(home, path)) return 'holds';
  if (SERVICE_ENTRIES.some((entry) => within(path, join(home, entry)))) return 'inside';
  return undefined;
}

function within(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
