import type { Db } from '../../platform/db/index.js';

const hasTable = new WeakMap<Db, boolean>();

/**
 * How many permission requests of a task's CLI wait for an answer (the harness's approval records,
 * docs/harness.md). None before the harness has made its tables in this database.
 */
export function openApprovalCount(db: Db, taskId: number): number {
  if (!hasTable.get(db)) {
    if (!db.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'harness_approvals'").get()) return 0;
    hasTable.set(db, true);
  }
  const row = db.prepare("SELECT COUNT(*) AS n FROM harness_approvals WHERE task_id = ? AND status = 'OPEN'").get(taskId) as { n: number };
  return Number(row.n);
}
