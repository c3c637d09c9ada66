import { realpathSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';

/** Where `provision_remote_project` clones repositories: the one part of SVC_HOME a project may live in. */
export const REMOTE_PROJECTS_DIR = 'remote-projects';

/**
 * How a folder overlaps the service's data folder, compared by real paths (a symbolic link does not
 * get around it): it `is` SVC_HOME, `holds` it, or lies `inside` it (outside its remote-projects
 * folder); undefined when it is clear of it.
 */
export function svcHomeOverlap(folder: string, svcHome: string): 'is' | 'holds' | 'inside' | undefined {
  const path = realPath(folder);
  const home = realPath(svcHome);
  if (path === home) return 'is';
  if (within(home, path)) return 'holds';
  if (within(path, home) && !within(path, realPath(join(home, REMOTE_PROJECTS_DIR)))) return 'inside';
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
