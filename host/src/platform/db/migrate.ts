import type { Db } from './database.js';
import type { Migration } from './migrations.js';

/**
 * Applies the migrations the database has not recorded, in version order, all in one transaction:
 * a new database (every `svc` command on an empty home makes one) commits once, not once per
 * migration, and a migration that fails leaves none of the pending ones applied.
 */
export function migrate(db: Db, migrations: Migration[]): number[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const pending = () => pendingMigrations(db, migrations);
  if (pending().length === 0) return [];
  // BEGIN IMMEDIATE, then read again: two processes starting at once must not both apply the same migration.
  db.exec('BEGIN IMMEDIATE');
  try {
    const ran: number[] = [];
    const appliedAt = new Date().toISOString();
    for (const migration of pending()) {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, appliedAt);
      ran.push(migration.version);
    }
    db.exec('COMMIT');
    return ran;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/** The migrations `db` has not recorded, in version order (it reads only: its migration table must exist). */
export function pendingMigrations(db: Db, migrations: readonly Migration[]): Migration[] {
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((row) => row.version));
  return [...migrations].sort((a, b) => a.version - b.version).filter((migration) => !applied.has(migration.version));
}
