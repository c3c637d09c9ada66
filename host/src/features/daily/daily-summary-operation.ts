import { z } from 'zod';
import { defineOperation } from '../../operation-framework/index.js';
import { DailyScopeFields, TaskBriefSchema, dailyScope, placeholders, toTaskBrief } from './daily-scope.js';

const ExecutionBrief = z.object({ id: z.number(), taskId: z.number(), status: z.string(), providerId: z.string(), startedAt: z.string(), endedAt: z.string().nullable() });

export const dailySummary = defineOperation({
  name: 'daily_summary',
  group: 'daily',
  description:
    'What happened on one day (UTC, default today): tasks created and completed, executions started with how they ended, notes written. ' +
    'Optionally one workspace or project. Read from the database; no model.',
  readOnly: true,
  runsIn: 'any',
  readScope: { inHandler: 'its report covers only projects in scope (dailyScope)' },
  reach: { names: { workspaceId: 'workspace', projectId: 'project' } },
  input: z
    .object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date is YYYY-MM-DD').optional(), ...DailyScopeFields })
    .strict(),
  output: z.object({
    date: z.string(),
    tasksCreated: z.array(TaskBriefSchema),
    tasksCompleted: z.array(TaskBriefSchema),
    executions: z.object({ started: z.number(), completed: z.number(), failed: z.number(), live: z.number(), items: z.array(ExecutionBrief) }),
    notes: z.array(z.object({ id: z.number(), projectId: z.number(), title: z.string() })),
  }),
  http: { method: 'GET', path: '/api/daily/summary' },
  cli: {
    command: 'daily summary',
    flags: { projectId: { resolve: 'project' }, workspaceId: { resolve: 'workspace' } },
    examples: ['svc daily summary', 'svc daily summary --date 2026-11-25 --project app'],
  },
  handler(input, ctx) {
    const date = input.date ?? new Date().toISOString().slice(0, 10);
    const projects = dailyScope(input, ctx);
    const db = ctx.services.db;
    const inScope = `project_id IN (${placeholders(projects)})`;
    type TaskRow = { id: number; project_id: number; title: string; status: string; updated_at: string };
    const created = db.prepare(`SELECT * FROM tasks WHERE ${inScope} AND substr(created_at, 1, 10) = ? ORDER BY id`).all(...projects, date) as TaskRow[];
    const completed = db.prepare(`SELECT * FROM tasks WHERE ${inScope} AND status = 'DONE' AND substr(updated_at, 1, 10) = ? ORDER BY id`).all(...projects, date) as TaskRow[];
    const executions = db
      .prepare(
        `SELECT e.id, e.task_id, e.status, e.provider_id, e.started_at, e.ended_at FROM executions e JOIN tasks t ON t.id = e.task_id
         WHERE t.${inScope} AND substr(e.started_at, 1, 10) = ? ORDER BY e.id`,
      )
      .all(...projects, date) as { id: number; task_id: number; status: string; provider_id: string; started_at: string; ended_at: string | null }[];
    const notes = db.prepare(`SELECT id, project_id, title FROM notes WHERE ${inScope} AND substr(created_at, 1, 10) = ? ORDER BY id`).all(...projects, date) as {
      id: number;
      project_id: number;
      title: string;
    }[];
    const count = (status: string) => executions.filter((e) => e.status === status).length;
    return {
      date,
      tasksCreated: created.map(toTaskBrief),
      tasksCompleted: completed.map(toTaskBrief),
      executions: {
        started: executions.length,
        completed: count('COMPLETED'),
        failed: count('FAILED'),
        live: count('RUNNING') + count('PAUSED'),
        items: executions.map((e) => ({ id: e.id, taskId: e.task_id, status: e.status, providerId: e.provider_id, startedAt: e.started_at, endedAt: e.ended_at })),
      },
      notes: notes.map((n) => ({ id: n.id, projectId: n.project_id, title: n.title })),
    };
  },
});
