// What libsql's own index.js asks `@neon-rs/load` and `detect-libc` to pick its native package, answered
// first the way detect-libc starts: from the text of /usr/bin/ldd. The bundles give libsql's index.js
// this module in place of those two packages (scripts/build.mjs): on a glibc Linux, libsql then loads
// without a diagnostic report (`process.report.getReport()`, which @neon-rs/load takes to tell glibc
// from musl) and without `node:child_process` (which detect-libc loads at its top). Any other
// system gets the packages' own answers, loaded from libsql's folder.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const GLIBC = 'glibc';
export const MUSL = 'musl';
const LDD_PATH = '/usr/bin/ldd';

let fromLibsql: NodeJS.Require | undefined;
/** A `require` from libsql's own folder: its native packages and helpers are its dependencies, not svc's. */
export function requireFromLibsql(id: string): unknown {
  fromLibsql ??= createRequire(libsqlIndex());
  return fromLibsql(id);
}

/**
 * libsql's index.js, found in the first node_modules up from here that has the package, as Node
 * looks for it; its exports map names index.js for `.`, so Node's resolution of that map (which
 * loads the ES module resolver's modules, a few milliseconds of every start that opens the database)
 * is not needed. Anywhere else (no file path, no such folder) Node resolves it.
 */
export function libsqlIndex(): string {
  const here = new URL('.', import.meta.url);
  if (here.protocol === 'file:') {
    for (let dir = fileURLToPath(here); ; dir = dirname(dir)) {
      const index = join(dir, 'node_modules', 'libsql', 'index.js');
      if (existsSync(index)) return realpathSync(index);
      if (dirname(dir) === dir) break;
    }
  }
  return createRequire(import.meta.url).resolve('libsql');
}

let lddFamily: string | null | undefined;
/** detect-libc's first test, the same way: "musl" in ldd's text is musl, "GLIBC" is glibc. */
function familyFromLdd(): string | null {
  if (lddFamily !== undefined) return lddFamily;
  lddFamily = null;
  if (process.platform !== 'linux') return lddFamily;
  try {
    const text = readFileSync(LDD_PATH, 'utf8');
    lddFamily = text.includes(MUSL) ? MUSL : text.includes(GLIBC.toUpperCase()) ? GLIBC : null;
  } catch {
    // No ldd: detect-libc's other tests decide.
  }
  return lddFamily;
}

/** detect-libc's `familySync`. */
export function familySync(): string | null {
  if (familyFromLdd() === GLIBC) return GLIBC;
  return (requireFromLibsql('detect-libc') as { familySync(): string | null }).familySync();
}

/**
 * @neon-rs/load's `currentTarget`, as libsql uses it: on a glibc Linux libsql takes the `-gnu`
 * package whatever @neon-rs/load says (its index.js turns a musl answer into gnu when detect-libc
 * says glibc), so the answer is that package's name without asking @neon-rs/load.
 */
export function currentTarget(): string {
  if (process.platform === 'linux' && (process.arch === 'x64' || process.arch === 'arm64') && familyFromLdd() === GLIBC) return `linux-${process.arch}-gnu`;
  return (requireFromLibsql('@neon-rs/load') as { currentTarget(): string }).currentTarget();
}

/** @neon-rs/load's `load` (libsql calls it for a development build only, LIBSQL_JS_DEV). */
export function load(dirname: string): unknown {
  return (requireFromLibsql('@neon-rs/load') as { load(dirname: string): unknown }).load(dirname);
}
