import { z } from 'zod';
import { defineOperation } from '../../operation-framework/index.js';
import { DailyScopeFields, TaskBriefSchema, dailyScope, placeholders, toTaskBrief } from './daily-scope.js';

const Attention = z.object({ task: TaskBriefSchema, reason: z.enum(['waiting_for_person', 'last_run_failed', 'in_review']), executionId: z.number().nullable() });

export const dailyTodo = defineOperation({
  name: 'daily_todo',
  group: 'daily',
  description:
    'What to do next: tasks that need a person first (paused waiting for an answer, last run failed, in review), then work in progress, then the TODO queue. ' +
    'Optionally one workspace or project.',
  readOnly: true,
  runsIn: 'any',
  readScope: { inHandler: 'its report covers only projects in scope (dailyScope)' },
  reach: { names: { workspaceId: 'workspace', projectId: 'project' } },
  input: z.object({ ...DailyScopeFields, limit: z.number().int().min(1).max(500).default(50) }).strict(),
  output: z.object({ needsAttention: z.array(Attention), inProgress: z.array(TaskBriefSchema), todo: z.array(TaskBriefSchema) }),
  http: { method: 'GET', path: '/api/daily/todo' },
  cli: { command: 'daily todo', flags: { projectId: { resolve: 'project' }, workspaceId: { resolve: 'workspace' } }, examples: ['svc daily todo --workspace main'] },
  handler(input, ctx) {
    const projects = dailyScope(input, ctx);
    const db = ctx.services.db;
    type Row = { id: number; project_id: number; title: string; status: string; updated_at: string; execution_id: number | null; execution_status: string | null };
    // Each open task with its latest execution.
    const rows = db
      .prepare(
        `SELECT t.id, t.project_id, t.title, t.status, t.updated_at, e.id AS execution_id, e.status AS execution_status
         FROM tasks t LEFT JOIN executions e ON e.id = (SELECT MAX(id) FROM executions WHERE task_id = t.id)
         WHERE t.project_id IN (${placeholders(projects)}) AND t.status IN ('TODO', 'IN_PROGRESS', 'IN_REVIEW')
         ORDER BY t.updated_at DESC, t.id DESC`,
      )
      .all(...projects) as Row[];
    const needsAttention: z.input<typeof Attention>[] = [];
    const inProgress = [];
    const todo = [];
    for (const row of rows) {
      const reason =
        row.execution_status === 'PAUSED' ? 'waiting_for_person' : row.execution_status === 'FAILED' && row.status !== 'TODO' ? 'last_run_failed' : row.status === 'IN_REVIEW' ? 'in_review' : undefined;
      if (reason) needsAttention.push({ task: toTaskBrief(row), reason, executionId: row.execution_id });
      else if (row.status === 'IN_PROGRESS') inProgress.push(toTaskBrief(row));
      else if (row.status === 'TODO') todo.push(toTaskBrief(row));
    }
    return { needsAttention: needsAttention.slice(0, input.limit), inProgress: inProgress.slice(0, input.limit), todo: todo.slice(0, input.limit) };
  },
});
