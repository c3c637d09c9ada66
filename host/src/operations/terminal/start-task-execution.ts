import { z } from 'zod';
import { ExecutionSchema } from '../../domain/index.js';
import { defineOperation } from '../define-operation.js';
import { IdSchema } from '../id-schema.js';
import { liveTerminals } from './live-terminals.js';
import { TerminalSize } from './terminal-size.js';

export const startTaskExecution = defineOperation({
  name: 'start_task_execution',
  group: 'terminal',
  description:
    "Start a fresh CLI session for a task in a terminal of the service, through a connection (default: the project's, see set_task_defaults), in the task's own git worktree when its project isolates tasks, else in the project folder.",
  readOnly: false,
  runsIn: 'service',
  input: z.object({ taskId: IdSchema, connection: z.string().min(1).optional(), model: z.string().min(1).optional(), ...TerminalSize }).strict(),
  output: ExecutionSchema,
  http: { method: 'POST', path: '/api/internal/terminal/:taskId/start', status: 201 },
  handler: (input, ctx) => {
    const { taskId, ...request } = input;
    const terminals = liveTerminals(ctx);
    const { domain } = ctx.services;
    return terminals.start(taskId, domain.taskDefaults.apply(domain.tasks.get(taskId).projectId, taskId, request));
  },
});
