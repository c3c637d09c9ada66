// The notification center and push_to_human at their edges, through the operations (and the
// system configuration `svc config set` writes), over a real libsql database: filters and pages,
// unknown ids, targets a channel does not name, and calls that do not say which task they are for.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { SystemConfigStore } from '@svc-org/host/platform/config';
import { MESSAGING_CONFIG_KEYS } from '../../src/messaging/messaging-config-keys.js';
import {
  getHarnessMessage,
  harnessStores,
  listHarnessMessages,
  pushToHuman,
  RAW_PUSH_TARGETS_KEY,
  replyToAsk,
  resendHarnessMessage,
  sendReviewComments,
} from '../../src/messaging/index.js';
import { addTelegramChannel, openHarnessFixture, type HarnessFixture } from '../support/harness-fixture.js';

const OWNER = '4242';
let fx: HarnessFixture;
const count = (table: string) => (fx.services.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

beforeEach(async () => {
  fx = await openHarnessFixture();
  addTelegramChannel(fx, OWNER);
});
afterEach(async () => fx.close());

describe('list_harness_messages', () => {
  test('filters by workspace, project, task and status, and pages with before', async () => {
    const a = fx.newTask('A');
    const b = fx.newTask('B');
    const first = await fx.call(pushToHuman, { taskId: a, message: 'one' });
    const second = await fx.call(pushToHuman, { taskId: a, message: 'two' });
    await fx.call(pushToHuman, { taskId: b, message: 'three' });
    const scoped = await fx.call(listHarnessMessages, { workspaceId: fx.workspaceId, projectId: fx.projectId, taskId: a, status: 'PENDING_DELIVERY', limit: 1 });
    expect(scoped.items.map((m: { id: number }) => m.id)).toEqual([second.messageId]);
    expect(scoped.nextBefore).toBe(second.messageId);
    const next = await fx.call(listHarnessMessages, { taskId: a, limit: 1, before: scoped.nextBefore });
    expect(next).toMatchObject({ items: [{ id: first.messageId }], nextBefore: null });
    expect((await fx.call(listHarnessMessages, { status: 'ANSWERED' })).items).toEqual([]);
  });
});

describe('unknown ids', () => {
  test('get_harness_message and resend of an unknown message are message_not_found; reply_to_ask for one is too', async () => {
    await expect(fx.call(getHarnessMessage, { id: 999 })).rejects.toMatchObject({ code: 'message_not_found' });
    await expect(fx.call(resendHarnessMessage, { id: 999 })).rejects.toMatchObject({ code: 'message_not_found' });
    await expect(fx.call(replyToAsk, { messageId: 999, reply: 'yes' })).rejects.toMatchObject({ code: 'message_not_found' });
  });

  test('a message still waiting to be sent is not resendable', async () => {
    const pushed = await fx.call(pushToHuman, { taskId: fx.newTask(), message: 'queued' });
    await expect(fx.call(resendHarnessMessage, { id: pushed.messageId })).rejects.toMatchObject({ code: 'not_resendable', details: { status: 'PENDING_DELIVERY' } });
  });

  test('push_to_human for a task that does not exist is task_not_found and queues nothing', async () => {
    await expect(fx.call(pushToHuman, { taskId: 999, message: 'hello' })).rejects.toMatchObject({ code: 'task_not_found' });
    expect(count('harness_messages')).toBe(0);
  });

  test('a call that names no task, from outside a task terminal, is asked to name it', async () => {
    await expect(fx.call(pushToHuman, { message: 'hello' })).rejects.toMatchObject({ code: 'invalid_request', details: { fix: expect.stringContaining('taskId') } });
  });
});

describe('replies without the service', () => {
  test('reply_to_ask names its task or message; with the service down it is service_required and the ask stays OPEN', async () => {
    const task = fx.newTask('Decide');
    fx.running(task);
    const pushed = await fx.call(pushToHuman, { taskId: task, message: 'Which one?', expectReply: true });
    harnessStores(fx.services).messages.openAsk(pushed.messageId, task);
    await expect(fx.call(replyToAsk, { reply: 'the first' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(fx.call(replyToAsk, { taskId: task, reply: 'the first' })).rejects.toMatchObject({ code: 'service_required' });
    expect(await fx.call(getHarnessMessage, { id: pushed.messageId })).toMatchObject({ status: 'OPEN', ask: { reply: null } });
  });

  test('send_review_comments with the service down is service_required', async () => {
    await expect(fx.call(sendReviewComments, { taskId: fx.newTask(), comments: [{ filename: 'a.ts', body: 'x' }] })).rejects.toMatchObject({ code: 'service_required' });
  });
});

describe('push_to_human targets', () => {
  test('a chat the channel does not name is refused until a person allows raw targets, and a bad setting is refused', async () => {
    const task = fx.newTask();
    await expect(fx.call(pushToHuman, { taskId: task, message: 'hi', to: '-100999' })).rejects.toMatchObject({ code: 'target_not_named', details: { channel: 'tg' } });
    expect(count('harness_messages')).toBe(0);
    const config = new SystemConfigStore(fx.services.db, MESSAGING_CONFIG_KEYS);
    expect(() => config.set(RAW_PUSH_TARGETS_KEY, 'sometimes')).toThrow(/allow or deny/);
    config.set(RAW_PUSH_TARGETS_KEY, 'allow');
    expect(await fx.call(pushToHuman, { taskId: task, message: 'hi', to: '-100999' })).toMatchObject({ to: '-100999', status: 'PENDING_DELIVERY' });
    expect(harnessStores(fx.services).messages.get((await fx.call(listHarnessMessages, {})).items[0].id)).toMatchObject({ body: expect.stringContaining('hi') });
  });
});
