import type { Db } from './database.js';
import type { Migration } from './migrations.js';

export function migrate(db: Db, migrations: Migration[]): number[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((row) => row.version),
  );
  const ran: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(migration.version)) continue;
    // BEGIN IMMEDIATE: two processes starting at once must not both apply the same migration.
    db.exec('BEGIN IMMEDIATE');
    try {
      const again = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(migration.version);
      if (!again) {
        db.exec(migration.sql);
        db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
          migration.version,
          migration.name,
          new Date().toISOString(),
        );
        ran.push(migration.version);
      }
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
  return ran;
}
