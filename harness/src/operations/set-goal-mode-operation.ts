// The optional unattended Goal runtime's switch: nobody watches → the signal file
// `unattended-<task_id>` exists and the ladder hook denies native question menus. Grants no
// external authorization: it changes who is asked, never what may be done.
import { join } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';

export const setGoalMode = defineOperation({
  name: 'set_goal_mode',
  group: 'goal',
  description:
    'Mark a task unattended (goal mode on: nobody watches its terminal, so questions go to ask_human/push_to_human or the parent) or watched again. ' +
    'Grants no external authorization.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { taskId: 'task' } },
  input: z
    .object({
      taskId: z.number().int().positive().optional().describe('defaults to the task this terminal runs (SVC_TASK_ID)'),
      unattended: z.boolean().describe('true = goal mode on (unattended), false = a person watches'),
    })
    .strict(),
  output: z.object({ taskId: z.number(), unattended: z.boolean(), signalFile: z.string() }),
  handler(input, ctx) {
    const taskId = input.taskId ?? ctx.caller.taskId;
    if (taskId === undefined) {
      throw new SvcError({ code: 'invalid_request', message: 'taskId is required outside a task terminal', details: { fields: ['taskId'] } });
    }
    // The store writes the column (rollback shadow) and the authoritative signal file together.
    const task = ctx.services.domain.tasks.update(taskId, { unattended: input.unattended });
    return { taskId: task.id, unattended: task.unattended, signalFile: join(ctx.services.signalDir.path, `unattended-${task.id}`) };
  },
});
