import type { Db } from '../../platform/db/index.js';

/**
 * How many permission requests of each of these tasks wait for an answer, in one read (a task with
 * none is left out). The host's own table, which a plugin that asks a person on a task's behalf keeps
 * (the harness's approvals, docs/harness.md); without one, every task has none.
 */
export function openApprovalCounts(db: Db, taskIds: readonly number[]): Map<number, number> {
  const counts = new Map<number, number>();
  if (taskIds.length === 0) return counts;
  const rows = (
    taskIds.length === 1
      ? db.prepare('SELECT task_id, open_count FROM task_open_approvals WHERE task_id = ?').all(taskIds[0]!)
      : db.prepare('SELECT task_id, open_count FROM task_open_approvals WHERE task_id IN (SELECT value FROM json_each(?))').all(JSON.stringify(taskIds))
  ) as { task_id: number; open_count: number }[];
  for (const row of rows) counts.set(Number(row.task_id), Number(row.open_count));
  return counts;
}
