// Workbench events over a real libsql database: child turn ends and execution ends become events
// once, the COMPLETED fallback yields to a stop-hook review, and an expired batch claim is released.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { transaction } from '../../../host/src/db/index.js';
import { routingStores } from '../../src/routing/index.js';
import { renderReviewBatch, WorkbenchWorker } from '../../src/workbench/index.js';
import { openHarnessFixture, type HarnessFixture } from '../support/harness-fixture.js';

let fx: HarnessFixture;
beforeEach(async () => (fx = await openHarnessFixture()));
afterEach(async () => fx.close());

const worker = () => new WorkbenchWorker({ services: fx.services, stores: routingStores(fx.services) });
const kinds = (parent: number) =>
  (fx.services.db.prepare('SELECT kind, priority, execution_id FROM harness_workbench_events WHERE parent_task_id = ? ORDER BY id').all(parent) as Record<string, unknown>[]).map(
    (r) => `${r.kind}:${r.priority}:${r.execution_id}`,
  );

test('a stop-hook review wins the execution review key; COMPLETED without one and FAILED always add an event; two workers add nothing twice', () => {
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

  for (const w of [worker(), worker()]) {
    w.consumeStopNotifications();
    w.scanExecutionEnds();
  }
  expect(fx.services.domain.stopNotifications.pending()).toEqual([]);
  expect(kinds(parent)).toEqual([
    `CHILD_TURN_ENDED:normal:${reviewed}`,
    `CHILD_TURN_ENDED:normal:${broken}`,
    `EXECUTION_COMPLETED:normal:${silent}`,
    `EXECUTION_FAILED:high:${broken}`,
  ]);
});

test('an expired batch claim is released at start: its events wait again and its message is gone', () => {
  const parent = fx.newTask('Lead');
  const child = fx.services.domain.tasks.create({ projectId: fx.projectId, title: 'Child', parentTaskId: parent }).id;
  fx.services.domain.stopNotifications.add({ taskId: child, executionId: null, sessionId: null, payload: { turn_id: 'x' } });
  const w = worker();
  w.consumeStopNotifications();
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
