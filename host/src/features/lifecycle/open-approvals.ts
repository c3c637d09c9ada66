import type { Db } from '../../platform/db/index.js';

/** Per database: the table was found, or the schema version it was last found missing at. */
const hasTable = new WeakMap<Db, true | { missingAt: number }>();

/**
 * Whether the harness has made its approval table in this database. Once found it stays; while
 * missing, the schema is looked through again only after its version changed (any CREATE TABLE,
 * by this process or another, changes it).
 */
function approvalsTableIn(db: Db): boolean {
  const known = hasTable.get(db);
  if (known === true) return true;
  const version = Number((db.prepare('PRAGMA schema_version').get() as { schema_version: number }).schema_version);
  if (known?.missingAt === version) return false;
  if (!db.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'harness_approvals'").get()) {
    hasTable.set(db, { missingAt: version });
    return false;
  }
  hasTable.set(db, true);
  return true;
}

/**
 * How many permission requests of a task's CLI wait for an answer (the harness's approval records,
 * docs/harness.md). None before the harness has made its tables in this database.
 */
export function openApprovalCount(db: Db, taskId: number): number {
  if (!approvalsTableIn(db)) return 0;
  const row = db.prepare("SELECT COUNT(*) AS n FROM harness_approvals WHERE task_id = ? AND status = 'OPEN'").get(taskId) as { n: number };
  return Number(row.n);
}

/** openApprovalCount of each of these tasks, in one read (a task with none is left out). */
export function openApprovalCounts(db: Db, taskIds: readonly number[]): Map<number, number> {
  const counts = new Map<number, number>();
  if (taskIds.length === 0 || !approvalsTableIn(db)) return counts;
  if (taskIds.length === 1) {
    const n = openApprovalCount(db, taskIds[0]!);
    if (n > 0) counts.set(taskIds[0]!, n);
    return counts;
  }
  const rows = db
    .prepare("SELECT task_id, COUNT(*) AS n FROM harness_approvals WHERE task_id IN (SELECT value FROM json_each(?)) AND status = 'OPEN' GROUP BY task_id")
    .all(JSON.stringify(taskIds)) as { task_id: number; n: number }[];
  for (const row of rows) counts.set(Number(row.task_id), Number(row.n));
  return counts;
}
