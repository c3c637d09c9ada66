// push_to_human keeps each task's route (its project, workspace and live execution; its channel and
// gateway) in memory between pushes, and a route changed in between, by this connection, by another
// connection or by another `svc` process, is what the next push goes by.
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { databasePath } from '@svc-org/host/platform/config';
import { openDatabase, transaction, type Db } from '@svc-org/host/platform/db';
import { harnessStores, pushToHuman } from '../../src/messaging/index.js';
import { routingStores } from '../../src/routing/index.js';
import { SVC_BIN } from '../../../test/support/svc-process.js';
import { openHarnessFixture, type HarnessFixture } from '../support/harness-fixture.js';

let fx: HarnessFixture;
let other: Db | undefined;

beforeEach(async () => {
  fx = await openHarnessFixture();
  const stores = routingStores(fx.services);
  const gateway = stores.gateways.add({ name: 'herm', kind: 'hermes', command: '/bin/true' } as never);
  stores.channels.add({ name: 'tg', gatewayId: gateway.id, platform: 'telegram', homeTo: '4242', ownerId: '4242', workspaceId: fx.workspaceId } as never);
});
afterEach(async () => {
  other?.close();
  other = undefined;
  vi.restoreAllMocks();
  await fx.close();
});

/** A second connection to the service's database file, as the CLI, `svc mcp` or another `svc serve` has. */
function otherConnection(): Db {
  other = openDatabase(databasePath(fx.home), { migrations: [] });
  return other;
}

/** The message row a push wrote: where it goes and which execution it belongs to. */
function written(messageId: number): { channel_id: number; target_to: string; execution_id: number | null } {
  const row = fx.services.db.prepare('SELECT channel_id, target_to, execution_id FROM harness_messages WHERE id = ?').get(messageId) as ReturnType<typeof written>;
  return { channel_id: row.channel_id, target_to: row.target_to, execution_id: row.execution_id };
}

const push = (taskId: number, extra: object = {}) => fx.call(pushToHuman, { taskId, message: 'keep the column?', ...extra });

test('a second push of a task, with nothing written in between, reads neither the task nor its channel again', async () => {
  const stores = harnessStores(fx.services);
  const ownerOf = vi.spyOn(stores.messages, 'ownerOf');
  const pickForPush = vi.spyOn(stores.channels, 'pickForPush');
  const task = fx.newTask();
  const first = await push(task);
  const second = await push(task, { expectReply: true });
  expect(ownerOf).toHaveBeenCalledTimes(1);
  expect(pickForPush).toHaveBeenCalledTimes(1);
  expect(second).toMatchObject({ channel: 'tg', to: '4242', taskId: task });
  expect(written(second.messageId)).toEqual(written(first.messageId));
});

test('a channel changed by another connection between two pushes is seen by the second push', async () => {
  const task = fx.newTask();
  expect(await push(task)).toMatchObject({ channel: 'tg', to: '4242' });
  otherConnection().prepare("UPDATE harness_channels SET home_to = '5151' WHERE name = 'tg'").run();
  const second = await push(task);
  expect(second).toMatchObject({ channel: 'tg', to: '5151' });
  expect(written(second.messageId).target_to).toBe('5151');
});

test('a gateway switched off by another connection between two pushes stops the second push', async () => {
  const task = fx.newTask();
  await push(task);
  otherConnection().prepare("UPDATE harness_gateways SET active = 0 WHERE name = 'herm'").run();
  await expect(push(task)).rejects.toMatchObject({ code: 'no_active_channel' });
});

test('an execution started by another connection between two pushes is the second push’s', async () => {
  const task = fx.newTask();
  const first = await push(task);
  expect(written(first.messageId).execution_id).toBeNull();
  const db = otherConnection();
  const execution = Number(
    db
      .prepare("INSERT INTO executions (task_id, provider_id, connection_name, mode, status, started_at) VALUES (?, 'svc.stand-in', 'stand-in', 'fresh', 'RUNNING', ?)")
      .run(task, new Date().toISOString()).lastInsertRowid,
  );
  const second = await push(task);
  expect(written(second.messageId).execution_id).toBe(execution);
});

test('a route changed on the service’s own connection between two pushes is seen by the second push', async () => {
  const task = fx.newTask();
  const first = await push(task);
  expect(written(first.messageId).execution_id).toBeNull();
  const execution = fx.running(task);
  const stores = routingStores(fx.services);
  const team = stores.channels.add({ name: 'team', gatewayId: stores.gateways.get('herm').id, platform: 'telegram', homeTo: '777', projectId: fx.projectId, workspaceId: fx.workspaceId } as never);
  const second = await push(task);
  expect(second).toMatchObject({ channel: 'team', to: '777' });
  expect(written(second.messageId)).toEqual({ channel_id: team.id, target_to: '777', execution_id: execution });
});

test('a push inside a transaction that is rolled back leaves no route behind that the rollback made untrue', async () => {
  const task = fx.newTask();
  await push(task);
  const rolledBack = new Error('rolled back');
  expect(() =>
    transaction(fx.services.db, () => {
      fx.running(task);
      const ctx = { services: fx.services, caller: { via: 'internal' as const }, signal: new AbortController().signal };
      pushToHuman.handler({ taskId: task, message: 'inside', expectReply: false }, ctx);
      throw rolledBack;
    }),
  ).toThrow(rolledBack);
  const after = await push(task);
  expect(written(after.messageId).execution_id).toBeNull();
});

test('a channel switched off by a `svc` command between two pushes is not the second push’s', async () => {
  const task = fx.newTask();
  const stores = routingStores(fx.services);
  stores.channels.add({ name: 'team', gatewayId: stores.gateways.get('herm').id, platform: 'telegram', homeTo: '777', projectId: fx.projectId, workspaceId: fx.workspaceId } as never);
  expect(await push(task)).toMatchObject({ channel: 'team', to: '777' });
  const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [SVC_BIN, 'channel', 'disable', 'team'], { env: { ...process.env, SVC_HOME: fx.home }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.once('close', (code) => resolve({ code, output }));
  });
  expect(result).toEqual({ code: 0, output: 'channel team disabled\n' });
  expect(await push(task)).toMatchObject({ channel: 'tg', to: '4242' });
});
