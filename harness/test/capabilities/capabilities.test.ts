// Capability tools over a real libsql database: discovery from the configured channels, a bounded
// Direct request riding on the outbox, scoped reads, and the completion callback waking the parent.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { getCapabilityRequest, listCapabilities, reconcileCapabilityJob, reportCapabilityCompletion, requestCapability } from '../../src/capabilities/index.js';
import { routingStores } from '../../src/routing/index.js';
import { openHarnessFixture, type HarnessFixture } from '../support/harness-fixture.js';

let fx: HarnessFixture;
beforeEach(async () => {
  fx = await openHarnessFixture();
  const stores = routingStores(fx.services);
  const gateway = stores.gateways.add({ name: 'herm', kind: 'hermes', command: '/bin/true' } as never);
  stores.channels.add({ name: 'tg', gatewayId: gateway.id, platform: 'telegram', homeTo: '4242', ownerId: '4242', trustedGroups: ['-100777'], projectId: fx.projectId });
});
afterEach(async () => fx.close());

test('discovery names what the channels allow; a Direct request is queued once per key and read only by its task', async () => {
  const parent = fx.newTask('Lead');
  const task = fx.services.domain.tasks.create({ projectId: fx.projectId, title: 'Child', parentTaskId: parent }).id;
  const listed = await fx.call(listCapabilities, {}, { taskId: task });
  expect(listed.capabilities).toEqual([expect.objectContaining({ name: 'message.send', gateway: 'herm', mode: 'direct', targets: ['4242', '-100777'] })]);

  const request = { capability: 'message.send', input: { to: '-100777', text: 'build is green' }, idempotencyKey: 'k1' };
  const first = await fx.call(requestCapability, request, { taskId: task });
  const again = await fx.call(requestCapability, request, { taskId: task });
  expect(first).toMatchObject({ status: 'PENDING', created: true });
  expect(again).toMatchObject({ requestId: first.requestId, created: false });
  expect((fx.services.db.prepare('SELECT COUNT(*) AS n FROM harness_outbound').get() as { n: number }).n).toBe(1);

  await expect(fx.call(requestCapability, { ...request, input: { to: '-1', text: 'x' }, idempotencyKey: 'k2' }, { taskId: task })).rejects.toMatchObject({ code: 'capability_not_offered' });
  const other = fx.newTask('Stranger');
  await expect(fx.call(getCapabilityRequest, { requestId: first.requestId }, { taskId: other })).rejects.toMatchObject({ code: 'capability_request_not_found' });

  fx.services.db.prepare("UPDATE harness_outbound SET state = 'SENT'").run();
  expect(await fx.call(reconcileCapabilityJob, { requestId: first.requestId }, { taskId: task })).toMatchObject({ status: 'SUCCEEDED', externalStatus: 'SENT' });
  const woke = await fx.call(reportCapabilityCompletion, { taskId: task, requestId: first.requestId });
  const twice = await fx.call(reportCapabilityCompletion, { taskId: task, requestId: first.requestId });
  expect([woke.woke, twice.woke]).toEqual([true, false]);
  expect(routingStores(fx.services).workbench.events({ parentTaskId: parent }).map((e) => e.kind)).toEqual(['CAPABILITY_JOB_COMPLETED']);
});
