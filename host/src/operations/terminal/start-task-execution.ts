import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { ExecutionSchema } from '../../features/domain/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';
import { holdStartForTest } from './hold-start-for-test.js';
import { liveTerminals } from './live-terminals.js';
import { TerminalSize } from './terminal-size.js';

export const startTaskExecution = defineOperation({
  name: 'start_task_execution',
  group: 'terminal',
  description:
    "Start a fresh CLI session for a task in a terminal of the service, through a connection (default: the project's, see set_task_defaults), in the task's own git worktree when its project isolates tasks, else in the project folder.",
  readOnly: false,
  runsIn: 'service',
  reach: { names: { taskId: 'task' } },
  input: z.object({ taskId: IdSchema, connection: z.string().min(1).optional(), model: z.string().min(1).optional(), ...TerminalSize }).strict(),
  output: ExecutionSchema,
  http: { method: 'POST', path: '/api/internal/terminal/:taskId/start', status: 201 },
  // A caller that cancels (an MCP client's notifications/cancelled, or one that disconnects) while
  // the CLI starts gets no terminal left behind: it is stopped and recorded as stopped.
  handler: async (input, ctx) => {
    const { taskId, ...request } = input;
    const terminals = liveTerminals(ctx);
    const { domain } = ctx.services;
    const settled = domain.taskDefaults.apply(domain.tasks.get(taskId).projectId, taskId, request);
    throwIfCancelled(ctx.signal, taskId);
    ctx.progress?.onStep?.(`starting task ${taskId} through connection ${settled.connection ?? '(none)'}`);
    const execution = await terminals.start(taskId, settled);
    await holdStartForTest(ctx.signal);
    if (ctx.signal.aborted) {
      await terminals.stop(taskId, 'stopped');
      throwIfCancelled(ctx.signal, taskId);
    }
    ctx.progress?.onStep?.(`execution ${execution.id} running in a terminal of the service`);
    return execution;
  },
});

function throwIfCancelled(signal: AbortSignal, taskId: number): void {
  if (signal.aborted) throw new SvcError({ code: 'cancelled', message: `starting task ${taskId} was cancelled`, details: { taskId } });
}
