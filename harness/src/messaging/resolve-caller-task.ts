import { SvcError } from '@svc-org/ai-sdk';
import type { OperationContext } from '@svc-org/host/operation-framework';
import { harnessStores } from './harness-stores.js';
import type { Ownership } from './message-store.js';

/**
 * The task a messaging call speaks for: the task terminal's own (`SVC_TASK_ID`, set by the adapter)
 * or, for the internal routes and the CLI, the `taskId` given. A task terminal cannot speak for another.
 */
export function resolveCallerTask(ctx: OperationContext, given: number | undefined): Ownership {
  return harnessStores(ctx.services).messages.ownerOf(callerTaskId(ctx, given));
}

/** The id of the task a messaging call speaks for (see resolveCallerTask), without reading it. */
export function callerTaskId(ctx: OperationContext, given: number | undefined): number {
  const fromCaller = ctx.caller.taskId;
  if (fromCaller !== undefined && given !== undefined && given !== fromCaller) {
    throw new SvcError({
      code: 'task_mismatch',
      message: `this terminal belongs to task ${fromCaller}; it cannot speak for task ${given}`,
      details: { callerTaskId: fromCaller, taskId: given },
    });
  }
  const taskId = fromCaller ?? given;
  if (taskId === undefined) {
    throw new SvcError({ code: 'invalid_request', message: 'say which task this is for (taskId)', details: { fix: 'pass taskId, or call from a task terminal' } });
  }
  return taskId;
}
