import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { harnessStores } from './harness-stores.js';
import { resolveCallerTask } from './resolve-caller-task.js';

export const notifyHuman = defineOperation({
  name: 'notify_human',
  group: 'messaging',
  description: 'Register a progress entry for a person (shown in the notification center). Sends nothing and changes no state; keep working.',
  readOnly: false,
  callerTaskField: 'taskId',
  runsIn: 'any',
  reach: { names: { taskId: 'task' } },
  input: z
    .object({
      message: z.string().trim().min(1).max(8000),
      taskId: z.number().int().positive().optional(),
    })
    .strict(),
  output: z.object({ messageId: z.number().int(), taskId: z.number().int(), status: z.literal('NOTIFY_ONLY') }),
  http: { method: 'POST', path: '/api/internal/harness/notify', status: 201 },
  handler(input, ctx) {
    const owner = resolveCallerTask(ctx, input.taskId);
    const messageId = harnessStores(ctx.services).messages.registerNotify(owner, input.message);
    return { messageId, taskId: owner.taskId, status: 'NOTIFY_ONLY' as const };
  },
});
