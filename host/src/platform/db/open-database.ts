import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import Database from 'libsql';
import { cachePreparedStatements } from './cache-prepared-statements.js';
import type { Db } from './database.js';
import { copyDatabaseTemplate } from './database-template.js';
import { migrate } from './migrate.js';
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
}

/**
 * Opens the embedded libsql file with WAL and a busy timeout (the host and `svc mcp` share it),
 * and applies pending migrations (in one transaction).
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  // Only where nothing is there: a write-ahead log left without its database would be replayed into the copy.
  if (options.template !== undefined && file !== ':memory:' && !file.startsWith('file:') && !existsSync(file) && !existsSync(`${file}-wal`)) {
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
  migrate(db, options.migrations ?? MIGRATIONS);
  return db;
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
