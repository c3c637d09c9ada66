import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import Database from 'libsql';
import { cachePreparedStatements } from './cache-prepared-statements.js';
import type { Db } from './database.js';
import { copyDatabaseTemplate } from './database-template.js';
import { migrate, pendingMigrations } from './migrate.js';
import { MIGRATIONS, type Migration } from './migrations.js';

export interface OpenDatabaseOptions {
  busyTimeoutMs?: number;
  migrations?: Migration[];
  /**
   * A database already migrated (the build's, see databaseTemplate), copied in when `file` does not
   * exist yet: its recorded migrations are then not run again. Its migrations must be a first part
   * of `migrations`.
   */
  template?: string;
  /**
   * The caller only reads. Where `file` does not exist yet, the template itself answers, opened
   * read-only, and no file is made: the first command that writes makes it from the same template.
   * A write through the returned database then fails with SQLITE_READONLY.
   */
  readOnly?: boolean;
}

/**
 * Opens the embedded libsql file with WAL and a busy timeout (the host and `svc mcp` share it),
 * and applies pending migrations (in one transaction).
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  const migrations = options.migrations ?? MIGRATIONS;
  // Only where nothing is there: a write-ahead log left without its database would be replayed into the copy.
  if (options.template !== undefined && file !== ':memory:' && !file.startsWith('file:') && !existsSync(file) && !existsSync(`${file}-wal`)) {
    const template = options.readOnly ? openTemplate(options.template, migrations) : undefined;
    if (template) return template;
    copyDatabaseTemplate(options.template, file);
  }
  ownerOnly(file);
  const db = new Database(file);
  // The busy timeout first: switching to WAL reads the header, and a process that is recovering or
  // checkpointing the file holds it for a moment; without a timeout that read fails at once.
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  cachePreparedStatements(db);
  migrate(db, migrations);
  return db;
}

/**
 * The build's template opened read-only and immutable (no lock, no log, no shared memory: nothing is
 * written beside it), or undefined when it cannot answer for a new database: it is missing or
 * unreadable, or lacks a migration the caller needs (a plugin's).
 */
function openTemplate(template: string, migrations: readonly Migration[]): Db | undefined {
  let db: Db | undefined;
  try {
    db = new Database(`${pathToFileURL(template).href}?mode=ro&immutable=1`);
    cachePreparedStatements(db);
    if (pendingMigrations(db, migrations).length === 0) return db;
  } catch {
    // Opened as a new database would be, below.
  }
  db?.close();
  return undefined;
}

/**
 * The database holds connection secrets (API keys): it is created 0600 whatever the umask or the mode
 * of SVC_HOME, and a file an older svc left readable is tightened. SQLite gives the WAL and SHM files
 * the database's own mode when it creates them; existing ones are tightened here too.
 */
function ownerOnly(file: string): void {
  if (file === ':memory:' || file.startsWith('file:')) return;
  closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      chmodSync(path, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
