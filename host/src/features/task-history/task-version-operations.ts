// Task versions: the history the database keeps
// of each task's title, description and status, and restoring an earlier text.
import { z } from 'zod';
import { taskSchema } from '../domain/index.js';
import { defineOperation, IdSchema, listOf } from '../../operation-framework/index.js';
import { TaskVersionSchema, TaskVersionStore } from './task-version-store.js';

export const listTaskVersions = defineOperation({
  name: 'list_task_versions',
  group: 'task',
  description: "A task's history: every version of its title, description and status, oldest first (version 1 is how it was created).",
  readOnly: true,
  runsIn: 'any',
  readScope: { before: (input, scope) => scope.task(input.taskId) },
  reach: { names: { taskId: 'task' } },
  input: z.object({ taskId: IdSchema }).strict(),
  output: listOf(TaskVersionSchema),
  http: { method: 'GET', path: '/api/tasks/:taskId/versions' },
  cli: { command: 'task versions', positionals: ['taskId'], examples: ['svc task versions 12'] },
  handler: (input, ctx) => {
    ctx.services.domain.tasks.get(input.taskId);
    return { items: new TaskVersionStore(ctx.services.db).list(input.taskId) };
  },
});

export const restoreTaskVersion = defineOperation({
  name: 'restore_task_version',
  group: 'task',
  description: "Put back the title and description of an earlier version (the status is not changed; use move_task). The restore is itself a new version.",
  readOnly: false,
  destructive: true,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { taskId: 'task' } },
  input: z.object({ taskId: IdSchema, version: z.number().int().min(1) }).strict(),
  get output() {
    return taskSchema();
  },
  http: { method: 'POST', path: '/api/tasks/:taskId/versions/:version/restore' },
  cli: {
    command: 'task restore-version',
    description: 'Put back the title and description of an earlier version (the status is not changed; svc task move does that). The restore is itself a new version.',
    positionals: ['taskId', 'version'],
    examples: ['svc task restore-version 12 3'],
  },
  handler: (input, ctx) => {
    const version = new TaskVersionStore(ctx.services.db).get(input.taskId, input.version);
    return ctx.services.domain.tasks.update(input.taskId, { title: version.title, description: version.description });
  },
});

