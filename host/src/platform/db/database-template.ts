import { chmodSync, copyFileSync, linkSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The name of the database `pnpm build` migrates from nothing and writes beside the bundles
 * (scripts/write-database-template.mjs): a new home's database is this file copied in, its pending
 * migrations (none, or a plugin's) then applied, instead of every migration run at the first command.
 */
export const DATABASE_TEMPLATE_NAME = 'svc-template.db';

/**
 * Where the build's template is for the code running now: beside the bundle (host/dist and
 * host/dist/cli hold the same file). Run from the sources there is none, and a new database is
 * migrated from nothing.
 */
export function databaseTemplate(): string | undefined {
  const url = new URL(`./${DATABASE_TEMPLATE_NAME}`, import.meta.url);
  return url.protocol === 'file:' ? fileURLToPath(url) : undefined;
}

/**
 * Copies `template` in as `file` when no `file` exists: written beside it owner-only, then linked
 * in place (a process that starts at the same moment finds either no file or the whole copy, never
 * half of one). False when there is no template to copy or `file` exists; the caller then opens
 * and migrates as usual.
 */
export function copyDatabaseTemplate(template: string, file: string): boolean {
  const partial = `${file}.${process.pid}.template`;
  try {
    copyFileSync(template, partial);
  } catch {
    rmSync(partial, { force: true });
    return false;
  }
  try {
    chmodSync(partial, 0o600);
    linkSync(partial, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(partial, { force: true });
  }
}
