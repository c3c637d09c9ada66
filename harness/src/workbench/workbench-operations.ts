// The Workbench's tools: a delivered review batch is acknowledged when read, then
// resolved once handled or stably delegated.
import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { defineOperation, type RecordResolver } from '@svc-org/host/operation-framework';
import { BatchIdField } from '../operations/harness-schemas.js';
import { routingStores } from '../routing/routing-stores.js';

const BatchState = z.enum(['CLAIMED', 'DELIVERED', 'ACKED', 'RESOLVED']);

/** How long an acknowledgement waits for a batch still being typed to be recorded as delivered. */
const DELIVERY_WAIT_MS = 10_000;

/** A review batch belongs to the parent task it was delivered to. */
const REVIEW_BATCH_RECORD: RecordResolver = (services, id) => ({ taskId: routingStores(services).workbench.batch(Number(id)).parentTaskId });

function ownBatch(batchParent: number, callerTaskId: number | undefined, batchId: number): void {
  if (callerTaskId !== undefined && callerTaskId !== batchParent) {
    throw new SvcError({ code: 'task_mismatch', message: `batch ${batchId} belongs to task ${batchParent}, not to this terminal's task`, details: { batchId, taskId: batchParent } });
  }
}

export const ackWorkbenchBatch = defineOperation({
  name: 'ack_workbench_batch',
  group: 'workbench',
  description: 'Acknowledge a review batch you have read (required before resolve_workbench_batch). Acknowledging twice is harmless.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { batchId: REVIEW_BATCH_RECORD } },
  input: z.object({ batchId: BatchIdField }).strict(),
  output: z.object({ batchId: z.number(), state: BatchState, events: z.number() }),
  http: { method: 'POST', path: '/api/internal/harness/workbench/ack' },
  async handler(input, ctx) {
    const { workbench } = routingStores(ctx.services);
    let before = workbench.batch(input.batchId);
    ownBatch(before.parentTaskId, ctx.caller.taskId, input.batchId);
    // The batch's text reaches the terminal a moment before the service records it DELIVERED (the
    // Enter after the paste): an agent that acknowledges at once waits for that record.
    const deadline = Date.now() + DELIVERY_WAIT_MS;
    while (before.state === 'CLAIMED' && Date.now() < deadline && !ctx.signal.aborted) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      before = workbench.batch(input.batchId);
    }
    if (before.state === 'CLAIMED') throw new SvcError({ code: 'batch_not_delivered', message: `batch ${input.batchId} is still being delivered`, details: { batchId: input.batchId } });
    const after = workbench.ack(input.batchId);
    return { batchId: after.id, state: after.state, events: workbench.events({ batchId: after.id }).length };
  },
});

export const resolveWorkbenchBatch = defineOperation({
  name: 'resolve_workbench_batch',
  group: 'workbench',
  description: 'Mark an acknowledged review batch handled (or stably delegated), with a short note of what was decided.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { batchId: REVIEW_BATCH_RECORD } },
  input: z.object({ batchId: BatchIdField, note: z.string().max(4000).optional() }).strict(),
  output: z.object({ batchId: z.number(), state: BatchState }),
  http: { method: 'POST', path: '/api/internal/harness/workbench/resolve' },
  handler(input, ctx) {
    const { workbench } = routingStores(ctx.services);
    const before = workbench.batch(input.batchId);
    ownBatch(before.parentTaskId, ctx.caller.taskId, input.batchId);
    if (before.state !== 'ACKED' && before.state !== 'RESOLVED') {
      throw new SvcError({ code: 'batch_not_acked', message: `acknowledge batch ${input.batchId} first (ack_workbench_batch)`, details: { batchId: input.batchId, state: before.state } });
    }
    const after = workbench.resolve(input.batchId, input.note ?? null);
    return { batchId: after.id, state: after.state };
  },
});
