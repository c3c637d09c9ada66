// The live values a completion asks for: read straight from the database file, read-only, with no
// service, no migration and nothing created; an absent or unreadable database completes to nothing.
import { existsSync } from 'node:fs';
import Database from 'libsql';
import type { LiveValueKind } from './completion-spec.js';

const QUERIES: Record<LiveValueKind, string> = {
  providers: 'SELECT id AS value FROM extensions ORDER BY id',
  connections: 'SELECT name AS value FROM connections ORDER BY name',
  // The open tasks, newest first: those a person starts, resumes or looks at.
  tasks: "SELECT id AS value FROM tasks WHERE status NOT IN ('DONE', 'CANCELLED') ORDER BY id DESC LIMIT 200",
};

export function liveCompletionValues(databaseFile: string, kind: LiveValueKind): string[] {
  if (!existsSync(databaseFile)) return [];
  let db: InstanceType<typeof Database> | undefined;
  try {
    db = new Database(databaseFile, { readonly: true, fileMustExist: true } as ConstructorParameters<typeof Database>[1]);
    db.exec('PRAGMA busy_timeout = 200');
    return (db.prepare(QUERIES[kind]).all() as Array<{ value: string | number }>).map((row) => String(row.value));
  } catch {
    return [];
  } finally {
    db?.close();
  }
}
