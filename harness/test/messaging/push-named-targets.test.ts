// push_to_human to the chats a channel names, through the operation over a real libsql database: the
// home chat and a named target's chat go out when given as a chat id, and a chat the channel does not
// name is refused with the target names the caller may use instead, queuing nothing.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { pushToHuman } from '../../src/messaging/index.js';
import { routingStores } from '../../src/routing/index.js';
import { openHarnessFixture, type HarnessFixture } from '../support/harness-fixture.js';

const OWNER = '4242';
let fx: HarnessFixture;
const count = () => (fx.services.db.prepare('SELECT COUNT(*) AS n FROM harness_messages').get() as { n: number }).n;

beforeEach(async () => {
  fx = await openHarnessFixture();
  const stores = routingStores(fx.services);
  const gateway = stores.gateways.add({ name: 'herm', kind: 'hermes', command: '/bin/true' } as never);
  stores.channels.add({
    name: 'tg',
    gatewayId: gateway.id,
    platform: 'telegram',
    homeTo: OWNER,
    ownerId: OWNER,
    trustedGroups: [],
    targets: [{ name: 'ops', to: '-100777', threadId: '9' }],
    projectId: null,
    workspaceId: fx.workspaceId,
  } as never);
});
afterEach(async () => fx.close());

test('the home chat and a named target, each given by its chat id, are sent to without allowing raw targets', async () => {
  const task = fx.newTask();
  expect(await fx.call(pushToHuman, { taskId: task, message: 'home', to: OWNER })).toMatchObject({ to: OWNER, threadId: null, status: 'PENDING_DELIVERY' });
  expect(await fx.call(pushToHuman, { taskId: task, message: 'ops', to: '-100777' })).toMatchObject({ to: '-100777', status: 'PENDING_DELIVERY' });
  expect(await fx.call(pushToHuman, { taskId: task, message: 'by name', to: 'ops' })).toMatchObject({ to: '-100777', threadId: '9' });
  expect(count()).toBe(3);
});

test('a chat the channel does not name is target_not_named, listing the names it does, and nothing is queued', async () => {
  await expect(fx.call(pushToHuman, { taskId: fx.newTask(), message: 'hi', to: '-100999' })).rejects.toMatchObject({
    code: 'target_not_named',
    details: { channel: 'tg', targets: ['ops'] },
  });
  expect(count()).toBe(0);
});
