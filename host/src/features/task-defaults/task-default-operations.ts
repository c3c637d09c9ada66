// Task defaults: per project, the connection and
// model a task's execution starts with when the caller names none (start_task_execution).
import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { defineOperation, RefSchema } from '../../operation-framework/index.js';
import { TaskDefaultsSchema } from '../domain/index.js';

export const getTaskDefaults = defineOperation({
    name: 'get_task_defaults',
    group: 'task',
    description: "A project's task defaults: the connection and model start_task_execution uses when you name none (null = no default).",
    readOnly: true,
    runsIn: 'any',
    readScope: { before: (input, scope) => scope.project(input.projectId) },
    reach: { names: { projectId: 'project' } },
    input: z.object({ projectId: RefSchema }).strict(),
    output: TaskDefaultsSchema,
    http: { method: 'GET', path: '/api/projects/:projectId/task-defaults' },
    handler: (input, ctx) => ctx.services.domain.taskDefaults.get(ctx.services.domain.projects.resolve(input.projectId).id),
  });

export const setTaskDefaults = defineOperation({
    name: 'set_task_defaults',
    group: 'task',
    description: "Set a project's task defaults: the connection (it must exist) and model its tasks start with when none is named; null clears one.",
    readOnly: false,
    idempotent: true,
    runsIn: 'any',
    reach: { names: { projectId: 'project' } },
    input: z
      .object({
        projectId: RefSchema,
        connection: z.string().min(1).max(100).nullable().optional(),
        model: z.string().min(1).max(200).nullable().optional(),
      })
      .strict(),
    output: TaskDefaultsSchema,
    http: { method: 'PUT', path: '/api/projects/:projectId/task-defaults' },
    handler: (input, ctx) => {
      const project = ctx.services.domain.projects.resolve(input.projectId);
      if (input.connection && !ctx.services.connections.find(input.connection)) {
        throw new SvcError({ code: 'connection_not_found', message: `no connection named "${input.connection}"`, details: { name: input.connection } });
      }
      return ctx.services.domain.taskDefaults.set(project.id, {
        ...(input.connection !== undefined ? { connection: input.connection } : {}),
        ...(input.model !== undefined ? { model: input.model } : {}),
      });
    },
  });

