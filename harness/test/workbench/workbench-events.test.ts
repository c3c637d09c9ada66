// Workbench events over a real libsql database: the host's durable domain events (claimed by a real
// event worker) turn child turn ends and execution ends into WorkbenchEvents once, the COMPLETED
// fallback yields to a stop-hook review, events nobody consumes end done, and an expired batch
// claim is released.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { transaction } from '@svc-org/host/platform/db';
import { EventWorker } from '@svc-org/host/platform/events';
import { routingStores } from '../../src/routing/index.js';
import { renderReviewBatch, WorkbenchEventConsumer, WorkbenchWorker } from '../../src/workbench/index.js';
import { openHarnessFixture, type HarnessFixture } from '../support/harness-fixture.js';

let fx: HarnessFixture;
beforeEach(async () => (fx = await openHarnessFixture()));
afterEach(async () => fx.close());

const worker = () => new WorkbenchWorker({ services: fx.services, stores: routingStores(fx.services) });
const consumer = () => new WorkbenchEventConsumer(fx.services, routingStores(fx.services));

/** Runs a real event worker with the Workbench's consumer until no domain event is left to claim. */
async function drain(owner: string): Promise<void> {
  const handler = consumer();
  const events = new EventWorker({ store: fx.services.domain.events, owner, pollMs: 10, handle: async (event) => void handler.handle(event) });
  events.start();
  const deadline = Date.now() + 10_000;
  while (fx.services.domain.events.list().some((e) => e.status === 'pending' || e.status === 'processing')) {
    if (Date.now() > deadline) throw new Error('domain events were not drained');
    await new Promise((r) => setTimeout(r, 10));
  }
  await events.stop();
}
const kinds = (parent: number) =>
  (fx.services.db.prepare('SELECT kind, priority, execution_id FROM harness_workbench_events WHERE parent_task_id = ? ORDER BY id').all(parent) as Record<string, unknown>[]).map(
    (r) => `${r.kind}:${r.priority}:${r.execution_id}`,
  );

test('a stop-hook review wins the execution review key; COMPLETED without one and FAILED always add an event; handling every event again adds nothing', async () => {
  const parent = fx.newTask('Lead');
  const child = fx.services.domain.tasks.create({ projectId: fx.projectId, title: 'Child', parentTaskId: parent }).id;
  const reviewed = fx.running(child);
  fx.services.domain.stopNotifications.add({ taskId: child, executionId: reviewed, sessionId: null, payload: { turn_id: 't1', last_assistant_message: 'done' } });
  fx.services.domain.executions.finish(reviewed, { status: 'COMPLETED', endReason: 'exited', exitCode: 0 });
  const silent = fx.running(child);
  fx.services.domain.executions.finish(silent, { status: 'COMPLETED', endReason: 'exited', exitCode: 0 });
  const broken = fx.running(child);
  fx.services.domain.stopNotifications.add({ taskId: child, executionId: broken, sessionId: null, payload: { turn_id: 't2' } });
  fx.services.domain.executions.finish(broken, { status: 'FAILED', endReason: 'exited', exitCode: 1 });
  // The root task's own stop hook is no event (it has no parent).
  fx.services.domain.stopNotifications.add({ taskId: parent, executionId: null, sessionId: null, payload: {} });

  // A status change: no part consumes it, and it must not stay pending.
  fx.services.domain.tasks.update(child, { status: 'IN_PROGRESS' });

  await drain('first');
  expect(fx.services.domain.events.list().map((e) => `${e.type}:${e.status}`)).toEqual([
    'stop_hook_arrived:done',
    'execution_ended:done',
    'execution_ended:done',
    'stop_hook_arrived:done',
    'execution_ended:done',
    'stop_hook_arrived:done',
    'task_status_changed:done',
  ]);
  // Handled again, as after a kill between an event's handling and its `done`: nothing is doubled.
  const again = consumer();
  for (const event of fx.services.domain.events.list()) again.handle(event);
  expect(fx.services.domain.stopNotifications.pending()).toEqual([]);
  expect(kinds(parent)).toEqual([
    `CHILD_TURN_ENDED:normal:${reviewed}`,
    `EXECUTION_COMPLETED:normal:${silent}`,
    `CHILD_TURN_ENDED:normal:${broken}`,
    `EXECUTION_FAILED:high:${broken}`,
  ]);
});

test("a child a person stopped, or the service interrupted, is an ordinary review naming how it ended, not a high-priority failure", async () => {
  const parent = fx.newTask('Lead');
  const child = fx.services.domain.tasks.create({ projectId: fx.projectId, title: 'Child', parentTaskId: parent }).id;
  const stopped = fx.running(child);
  fx.services.domain.executions.finish(stopped, { status: 'COMPLETED', endReason: 'stopped', exitSignal: 2 });
  const interrupted = fx.running(child);
  fx.services.domain.executions.finish(interrupted, { status: 'COMPLETED', endReason: 'service_shutdown' });
  await drain('outcomes');
  expect(kinds(parent)).toEqual([`EXECUTION_COMPLETED:normal:${stopped}`, `EXECUTION_COMPLETED:normal:${interrupted}`]);
  const summaries = (fx.services.db.prepare('SELECT payload FROM harness_workbench_events WHERE parent_task_id = ? ORDER BY id').all(parent) as { payload: string }[]).map(
    (row) => JSON.parse(row.payload).summary,
  );
  expect(summaries).toEqual(['stopped (stopped)', 'interrupted (service_shutdown)']);
});

test('an expired batch claim is released at start: its events wait again and its message is gone', async () => {
  const parent = fx.newTask('Lead');
  const child = fx.services.domain.tasks.create({ projectId: fx.projectId, title: 'Child', parentTaskId: parent }).id;
  fx.services.domain.stopNotifications.add({ taskId: child, executionId: null, sessionId: null, payload: { turn_id: 'x' } });
  await drain('only');
  const w = worker();
  const { workbench } = routingStores(fx.services);
  const claim = transaction(fx.services.db, () => workbench.claimBatch(parent, -1, renderReviewBatch));
  expect(claim?.events).toHaveLength(1);
  expect(workbench.taskMessages(parent)).toHaveLength(1);
  // Nothing is left to claim while the first batch holds its events.
  expect(transaction(fx.services.db, () => workbench.claimBatch(parent, 60_000, renderReviewBatch))).toBeUndefined();
  expect(w.recoverExpiredClaims()).toBe(1);
  expect(workbench.events({ parentTaskId: parent }).map((e) => e.state)).toEqual(['PENDING']);
  expect(workbench.taskMessages(parent)).toHaveLength(0);
  expect(workbench.batches(parent)).toEqual([]);
});

test('a COMPLETED execution handled before its stop hook takes the review key; the turn end is still reported, once', async () => {
  const parent = fx.newTask('Lead');
  const child = fx.services.domain.tasks.create({ projectId: fx.projectId, title: 'Child', parentTaskId: parent }).id;
  const execution = fx.running(child);
  fx.services.domain.executions.finish(execution, { status: 'COMPLETED', endReason: 'exited', exitCode: 0 });
  fx.services.domain.stopNotifications.add({ taskId: child, executionId: execution, sessionId: null, payload: { turn_id: 'late' } });
  await drain('order');
  const rows = fx.services.db.prepare('SELECT kind, execution_review_key FROM harness_workbench_events WHERE parent_task_id = ? ORDER BY id').all(parent);
  expect(rows.map((r) => ({ ...(r as object) }))).toEqual([
    { kind: 'EXECUTION_COMPLETED', execution_review_key: `review:${execution}` },
    { kind: 'CHILD_TURN_ENDED', execution_review_key: null },
  ]);
});

test('a payload the Workbench cannot read is retried and then marked failed, never left pending', async () => {
  fx.services.domain.events.append({ type: 'execution_ended', dedupKey: 'execution_ended:broken', payload: { executionId: 'x' } });
  const handler = consumer();
  const events = new EventWorker({ store: fx.services.domain.events, owner: 'strict', pollMs: 5, maxAttempts: 2, maxBackoffMs: 5, handle: async (event) => void handler.handle(event) });
  events.start();
  const deadline = Date.now() + 10_000;
  while (fx.services.domain.events.list()[0]!.status !== 'failed' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  await events.stop();
  expect(fx.services.domain.events.list()[0]).toMatchObject({ status: 'failed', attempts: 2, lastError: expect.stringContaining('cannot read') });
});

test('a stop hook or execution end first handled more than seven days after it happened adds no review', () => {
  const parent = fx.newTask('Lead');
  const child = fx.services.domain.tasks.create({ projectId: fx.projectId, title: 'Child', parentTaskId: parent }).id;
  const execution = fx.running(child);
  fx.services.domain.executions.finish(execution, { status: 'FAILED', endReason: 'exited', exitCode: 1 });
  const [ended] = fx.services.domain.events.list({ type: 'execution_ended' });
  const handler = consumer();
  expect(handler.handle(ended!, ended!.createdAt + 8 * 24 * 60 * 60 * 1000)).toBe('stale');
  expect(kinds(parent)).toEqual([]);
  expect(handler.handle(ended!, ended!.createdAt + 6 * 24 * 60 * 60 * 1000)).toBe('workbench_event');
  expect(kinds(parent)).toEqual([`EXECUTION_FAILED:high:${execution}`]);
});
