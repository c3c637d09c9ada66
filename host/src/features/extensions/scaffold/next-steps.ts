// The commands that take a fresh scaffold to a query through svc, in order; `svc ext new` prints them.
import { relative, sep } from 'node:path';
import { INSTALL_COMMAND } from './install-command.js';
import { WORKSPACE_LOCKFILE_COMMAND } from './workspace-scaffold-files.js';
import type { ScaffoldNames } from './scaffold-names.js';

// Quotes a path for a POSIX shell only when it needs it, so the common case stays copy-pasteable as is.
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:@%+=-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

export function nextSteps(names: ScaffoldNames, dir: string): string[] {
  return [
    `cd ${shellWord(dir)}`,
    INSTALL_COMMAND,
    'pnpm build',
    'pnpm test',
    `svc ext dev add ${shellWord(dir)}`,
    `svc ext enable ${names.id}`,
    `svc query --provider ${names.id} "Say hello"`,
  ];
}

/** In an svc repository: the lockfile command at its root, then the package's own scripts through pnpm --dir. */
export function workspaceNextSteps(names: ScaffoldNames, dir: string, repoRoot: string, lockfileCommand = WORKSPACE_LOCKFILE_COMMAND): string[] {
  const folder = relative(repoRoot, dir).split(sep).join('/');
  return [
    `cd ${shellWord(repoRoot)}`,
    lockfileCommand,
    `pnpm --dir ${shellWord(folder)} build`,
    `pnpm --dir ${shellWord(folder)} test`,
    `svc ext dev add ${shellWord(dir)}`,
    `svc ext enable ${names.id}`,
    `svc query --provider ${names.id} "Say hello"`,
  ];
}
