// ack_workbench_batch against a batch still being typed into the parent's terminal: the text is on
// the screen a moment before the service records the batch DELIVERED, and an agent that reads it
// and acknowledges at once must not be refused for that.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { transaction } from '@svc-org/host/platform/db';
import { routingStores } from '../../src/routing/index.js';
import { ackWorkbenchBatch } from '../../src/workbench/index.js';
import { openHarnessFixture, type HarnessFixture } from '../support/harness-fixture.js';

let fx: HarnessFixture;
beforeEach(async () => (fx = await openHarnessFixture()));
afterEach(async () => fx.close());

function claimedBatch(parent: number): number {
  const { workbench } = routingStores(fx.services);
  workbench.addEvent({ parentTaskId: parent, kind: 'CHILD_TURN_ENDED', priority: 'normal', dedupKey: `ack-test:${parent}`, payload: { summary: 'done' } });
  return transaction(fx.services.db, () => workbench.claimBatch(parent, 60_000, () => 'review batch')!.batchId);
}

test('an acknowledgement of a batch still being delivered waits for the delivery record, then acknowledges it', async () => {
  const parent = fx.newTask('Lead');
  const batchId = claimedBatch(parent);
  const { workbench } = routingStores(fx.services);
  const acked = fx.call(ackWorkbenchBatch, { batchId }, { via: 'mcp', taskId: parent });
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(workbench.batch(batchId).state).toBe('CLAIMED');
  workbench.delivered(batchId);
  expect(await acked).toMatchObject({ batchId, state: 'ACKED', events: 1 });
});

test("another task's terminal cannot acknowledge the batch, delivered or not", async () => {
  const parent = fx.newTask('Lead');
  const batchId = claimedBatch(parent);
  await expect(fx.call(ackWorkbenchBatch, { batchId }, { via: 'mcp', taskId: fx.newTask('Other') })).rejects.toMatchObject({ code: 'task_mismatch' });
  expect(routingStores(fx.services).workbench.batch(batchId).state).toBe('CLAIMED');
});
