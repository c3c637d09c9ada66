import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import type { Db } from '../../platform/db/index.js';

export const TaskVersionSchema = z.object({
  taskId: z.number(),
  version: z.number(),
  title: z.string(),
  description: z.string(),
  status: z.string(),
  recordedAt: z.string(),
});
export type TaskVersion = z.infer<typeof TaskVersionSchema>;

interface VersionRow {
  task_id: number;
  version: number;
  title: string;
  description: string;
  status: string;
  recorded_at: string;
}
const toVersion = (row: VersionRow): TaskVersion => ({
  taskId: row.task_id,
  version: row.version,
  title: row.title,
  description: row.description,
  status: row.status,
  recordedAt: row.recorded_at,
});

/** `task_versions`, written by triggers on `tasks`: read here, never written. */
export class TaskVersionStore {
  constructor(private readonly db: Db) {}

  list(taskId: number): TaskVersion[] {
    return (this.db.prepare('SELECT * FROM task_versions WHERE task_id = ? ORDER BY version').all(taskId) as VersionRow[]).map(toVersion);
  }

  get(taskId: number, version: number): TaskVersion {
    const row = this.db.prepare('SELECT * FROM task_versions WHERE task_id = ? AND version = ?').get(taskId, version) as VersionRow | undefined;
    if (!row) throw new SvcError({ code: 'task_version_not_found', message: `task ${taskId} has no version ${version}`, details: { taskId, version } });
    return toVersion(row);
  }
}
