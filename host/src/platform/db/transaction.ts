import type { Db } from './database.js';

const depth = new WeakMap<Db, number>();

/**
 * Runs `work` in a write transaction and commits, or rolls back on a throw. Outermost it is
 * BEGIN IMMEDIATE (the write lock is taken before the first read, so the checks `work` makes hold
 * until it commits even with the service, the CLI and `svc mcp` on one file); nested it is a
 * SAVEPOINT, so a store method that opens a transaction composes inside its caller's.
 */
export function transaction<T>(db: Db, work: () => T): T {
  const level = depth.get(db) ?? 0;
  if (level === 0 && (db as { inTransaction?: boolean }).inTransaction) {
    throw new Error('transaction(): a transaction opened outside transaction() is still open on this connection');
  }
  const savepoint = `svc_sp_${level}`;
  db.exec(level === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${savepoint}`);
  depth.set(db, level + 1);
  try {
    const result = work();
    db.exec(level === 0 ? 'COMMIT' : `RELEASE ${savepoint}`);
    return result;
  } catch (error) {
    if (level === 0) db.exec('ROLLBACK');
    else db.exec(`ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
    throw error;
  } finally {
    depth.set(db, level);
  }
}
