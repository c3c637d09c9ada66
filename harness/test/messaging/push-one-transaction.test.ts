// push_to_human reads the task and its channel and writes the message, outbox row and ask intent in
// one write transaction over a real libsql database: every statement it runs runs inside that one
// BEGIN IMMEDIATE … COMMIT (no savepoint, no read outside it), so what it checked still holds when the
// rows are written.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { transaction } from '@svc-org/host/platform/db';
import { pushToHuman } from '../../src/messaging/index.js';
import { MessageStore } from '../../src/messaging/message-store.js';
import { timeOrderedId } from '../../src/messaging/time-ordered-id.js';
import { routingStores } from '../../src/routing/index.js';
import { openHarnessFixture, type HarnessFixture } from '../support/harness-fixture.js';

let fx: HarnessFixture;
let restore: (() => void) | undefined;

beforeEach(async () => {
  fx = await openHarnessFixture();
  const stores = routingStores(fx.services);
  const gateway = stores.gateways.add({ name: 'herm', kind: 'hermes', command: '/bin/true' } as never);
  stores.channels.add({
    name: 'tg',
    gatewayId: gateway.id,
    platform: 'telegram',
    homeTo: '4242',
    ownerId: '4242',
    trustedGroups: [],
    targets: [],
    projectId: null,
    workspaceId: fx.workspaceId,
  } as never);
});
afterEach(async () => {
  restore?.();
  restore = undefined;
  await fx.close();
});

/** Every statement the database runs from now on: transaction control by its text, the rest as `read`/`write` with whether a transaction was open. */
function recordStatements(): string[] {
  const db = fx.services.db;
  const seen: string[] = [];
  const exec = db.exec;
  db.exec = ((sql: string) => {
    seen.push(sql.trim().split(/\s+/)[0]!.toUpperCase());
    return exec.call(db, sql);
  }) as typeof db.exec;
  const proto = Object.getPrototypeOf(db.prepare('SELECT 1')) as Record<'get' | 'run' | 'all', (...args: unknown[]) => unknown>;
  const originals = { get: proto.get, run: proto.run, all: proto.all };
  for (const method of ['get', 'run', 'all'] as const) {
    proto[method] = function (this: unknown, ...args: unknown[]) {
      seen.push(`${method === 'run' ? 'write' : 'read'}${db.inTransaction ? ' in transaction' : ' alone'}`);
      return originals[method].apply(this, args);
    };
  }
  restore = () => {
    db.exec = exec;
    Object.assign(proto, originals);
  };
  return seen;
}

test('a push with a reply expected runs its reads and its three rows in one transaction, and nothing outside it', async () => {
  await fx.call(pushToHuman, { taskId: fx.newTask(), message: 'warm the statements', expectReply: false });
  // Another task: its route is not kept yet, so the push reads the task and its channel.
  const task = fx.newTask();
  const seen = recordStatements();
  const answer = await fx.call(pushToHuman, { taskId: task, message: 'keep the column?', expectReply: true });
  restore?.();
  expect(answer).toMatchObject({ status: 'PENDING_DELIVERY', expectReply: true });
  expect(seen[0]).toBe('BEGIN');
  expect(seen.at(-1)).toBe('COMMIT');
  const inside = seen.slice(1, -1);
  // The two counters that say whether a kept route holds, the task, its channel.
  expect(inside.filter((entry) => entry.startsWith('read')).length).toBeGreaterThanOrEqual(4);
  expect(inside.filter((entry) => entry === 'write in transaction')).toHaveLength(3);
  expect(inside.every((entry) => entry.endsWith(' in transaction'))).toBe(true);
});

test('a push refused for want of a channel leaves no transaction open and no row behind', async () => {
  const task = fx.newTask();
  await expect(fx.call(pushToHuman, { taskId: task, message: 'hi', channel: 'nowhere' })).rejects.toMatchObject({ code: 'no_active_channel' });
  expect(fx.services.db.inTransaction).toBe(false);
  expect((fx.services.db.prepare('SELECT COUNT(*) AS n FROM harness_messages').get() as { n: number }).n).toBe(0);
});

test('the three rows of a push carry one time: the clock is read once per push', async () => {
  const task = fx.newTask();
  // A clock that moves a millisecond at every reading: rows stamped by separate readings differ.
  let tick = Date.parse('2026-11-29T00:00:00.000Z');
  const store = new MessageStore(fx.services.db, () => new Date(tick++));
  const channel = routingStores(fx.services).channels.pickForPush({ workspaceId: fx.workspaceId, projectId: fx.projectId })!;
  const { messageId, outboxId } = transaction(fx.services.db, () =>
    store.writePush({ ...store.ownerOf(task), kind: 'PUSH', body: 'keep the column?', channelId: channel.id, gatewayId: channel.gatewayId, to: '4242', threadId: null, expectReply: true }),
  );
  const db = fx.services.db;
  const message = db.prepare('SELECT created_at, updated_at FROM harness_messages WHERE id = ?').get(messageId) as { created_at: string; updated_at: string };
  const outbound = db.prepare('SELECT id, created_at, updated_at, next_attempt_at FROM harness_outbound WHERE message_id = ?').get(messageId) as Record<string, string | number>;
  const ask = db.prepare('SELECT created_at FROM harness_asks WHERE message_id = ?').get(messageId) as { created_at: string };
  const at = message.created_at;
  expect([message.updated_at, outbound.created_at, outbound.updated_at, ask.created_at]).toEqual([at, at, at, at]);
  expect(outbound.next_attempt_at).toBe(Date.parse(at));
  expect(outbound.id).toBe(outboxId);
});

test('outbox ids are UUID version 7 whose first 48 bits are the time, unique at any rate', () => {
  const at = Date.parse('2026-11-29T03:46:08.123Z');
  const ids = Array.from({ length: 1000 }, () => timeOrderedId(at));
  for (const id of ids) {
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
  }
  expect(new Set(ids).size).toBe(ids.length);
  expect(timeOrderedId(at) < timeOrderedId(at + 1)).toBe(true);
});
