import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import type { Db } from '../../platform/db/index.js';

// Built at its first use (z.lazy, the same JSON Schema): a command that shows none never constructs it.
export const TaskDefaultsSchema = z.lazy(() =>
  z.object({
    projectId: z.number(),
    /** The connection `start_task_execution` uses when none is named. */
    connection: z.string().nullable(),
    /** The model it passes when none is named. */
    model: z.string().nullable(),
    updatedAt: z.string().nullable(),
  }),
);
export type TaskDefaults = z.infer<typeof TaskDefaultsSchema>;

/** `task_defaults`: one row per project; a project without a row has no defaults. */
export class TaskDefaultStore {
  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {}

  get(projectId: number): TaskDefaults {
    const row = this.db.prepare('SELECT * FROM task_defaults WHERE project_id = ?').get(projectId) as
      | { connection: string | null; model: string | null; updated_at: string }
      | undefined;
    return { projectId, connection: row?.connection ?? null, model: row?.model ?? null, updatedAt: row?.updated_at ?? null };
  }

  /** `null` clears a default; an absent field keeps it. */
  set(projectId: number, patch: { connection?: string | null; model?: string | null }): TaskDefaults {
    const current = this.get(projectId);
    const connection = patch.connection === undefined ? current.connection : patch.connection;
    const model = patch.model === undefined ? current.model : patch.model;
    this.db
      .prepare(
        `INSERT INTO task_defaults (project_id, connection, model, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (project_id) DO UPDATE SET connection = excluded.connection, model = excluded.model, updated_at = excluded.updated_at`,
      )
      .run(projectId, connection, model, this.now().toISOString());
    return this.get(projectId);
  }

  /** A launch request completed from the project's defaults; `connection_required` when none names one. */
  apply<T extends { connection?: string; model?: string }>(projectId: number, taskId: number, request: T): T & { connection: string } {
    const defaults = this.get(projectId);
    const connection = request.connection ?? defaults.connection ?? undefined;
    if (!connection) {
      throw new SvcError({
        code: 'connection_required',
        message: `name the connection that runs task ${taskId}'s CLI, or set its project's default with set_task_defaults`,
        details: { taskId },
      });
    }
    const model = request.model ?? defaults.model ?? undefined;
    return { ...request, connection, ...(model ? { model } : {}) };
  }
}
