import type { Db } from './database.js';

/** Runs `work` in a write transaction (BEGIN IMMEDIATE) and commits, or rolls back on a throw. */
export function transaction<T>(db: Db, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
