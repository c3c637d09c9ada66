// The commands that take a fresh scaffold to a query through svc, in order; `svc ext new` prints them.
import { INSTALL_COMMAND } from './install-command.js';
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
