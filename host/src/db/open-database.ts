import Database from 'libsql';
import { cachePreparedStatements } from './cache-prepared-statements.js';
import type { Db } from './database.js';
import { migrate } from './migrate.js';
import { MIGRATIONS, type Migration } from './migrations.js';

export interface OpenDatabaseOptions {
  busyTimeoutMs?: number;
  migrations?: Migration[];
}

/**
 * Opens the embedded libsql file with WAL and a busy timeout (the host and `svc mcp` share it),
 * and applies pending migrations, each in its own transaction.
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  cachePreparedStatements(db);
  migrate(db, options.migrations ?? MIGRATIONS);
  return db;
}
