import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { questionAsked } from '@svc-org/host/features/lifecycle';
import { defineOperation } from '@svc-org/host/operation-framework';
import { harnessStores } from './harness-stores.js';
import { resolveCallerTask } from './resolve-caller-task.js';

export const ASK_INSTRUCTION = 'Your question is registered and this task is parked. Stop now and wait: the reply arrives as your next message.';

export const askHuman = defineOperation({
  name: 'ask_human',
  group: 'messaging',
  description:
    'Register a question for a person and park this task (execution PAUSED, terminal kept alive). Sends nothing by itself; stop and wait: the reply arrives as your next message.',
  readOnly: false,
  callerTaskField: 'taskId',
  runsIn: 'service',
  reach: { names: { taskId: 'task' } },
  input: z
    .object({
      question: z.string().trim().min(1).max(8000),
      /** Choices the person can pick from; listed under the question. */
      options: z.array(z.string().min(1).max(500)).max(20).optional(),
      /** Only for the internal route and the CLI; a task terminal's own task otherwise. */
      taskId: z.number().int().positive().optional(),
    })
    .strict(),
  output: z.object({
    askId: z.number().int(),
    messageId: z.number().int(),
    taskId: z.number().int(),
    executionId: z.number().int(),
    status: z.literal('OPEN'),
    parked: z.literal(true),
    instruction: z.string(),
  }),
  http: { method: 'POST', path: '/api/internal/harness/ask', status: 201 },
  handler(input, ctx) {
    const owner = resolveCallerTask(ctx, input.taskId);
    const { domain } = ctx.services;
    const execution = owner.executionId === null ? undefined : domain.executions.get(owner.executionId);
    if (!execution) {
      throw new SvcError({
        code: 'task_not_running',
        message: `task ${owner.taskId} has no running execution to park`,
        details: { taskId: owner.taskId, fix: 'ask from the task terminal while it runs, or use notify_human' },
      });
    }
    const body = input.options?.length ? `${input.question}\n\n${input.options.map((option, i) => `${i + 1}. ${option}`).join('\n')}` : input.question;
    const { messageId, askId } = harnessStores(ctx.services).messages.registerAsk(owner, body, () => {
      questionAsked(domain, execution.id);
    });
    // The row is PAUSED already; this holds the terminal's disconnect keepalive while it waits.
    const terminal = ctx.terminals?.summary(owner.taskId);
    if (terminal && terminal.state !== 'ENDED' && terminal.executionId === execution.id) ctx.terminals!.pause(owner.taskId);
    return { askId, messageId, taskId: owner.taskId, executionId: execution.id, status: 'OPEN' as const, parked: true as const, instruction: ASK_INSTRUCTION };
  },
});
