import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createChannel, createGateway } from '../../src/gateways/index.js';
import { join } from 'node:path';
import { openDatabase } from '@svc-org/host/platform/db';
import { SystemConfigStore } from '@svc-org/host/platform/config';
import { askHuman, getHarnessMessage, harnessStores, MessageStore, listNotifyTargets, notifyHuman, pushToHuman, RAW_PUSH_TARGETS_KEY, replyToAsk, resendHarnessMessage } from '../../src/messaging/index.js';
import { MESSAGING_CONFIG_KEYS } from '../../src/messaging/messaging-config-keys.js';
import { startHarness, type RunningHarness } from '../../src/outbox/index.js';
import { openHarnessFixture, type HarnessFixture } from '../support/harness-fixture.js';
import { startScriptedOpenClawGateway, type ScriptedOpenClawGateway } from '../support/scripted-openclaw-gateway.js';

const TOKEN = 'oc-secret-token-abcdef123456';
let fx: HarnessFixture;
let gateway: ScriptedOpenClawGateway;
let harness: RunningHarness | undefined;

beforeAll(async () => {
  fx = await openHarnessFixture();
  gateway = await startScriptedOpenClawGateway(TOKEN);
});
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});
afterAll(async () => {
  await gateway.close();
  await fx.close();
});

/** A harness whose worker only sends when the test says so (drain), never on its own timer. */
function manualHarness(): RunningHarness {
  harness = startHarness({ services: fx.services, startWorker: false, worker: { concurrency: 2 }, sendTimeoutMs: 1500 });
  return harness;
}

const row = (sql: string, ...params: unknown[]) => fx.services.db.prepare(sql).get(...params) as any;
const count = (sql: string, ...params: unknown[]) => (row(sql, ...params) as { n: number }).n;

describe('messaging without a channel', () => {
  test('ask_human registers an OPEN question and parks the running execution; nothing is sent', async () => {
    const taskId = fx.newTask();
    const executionId = fx.running(taskId);
    const asked = await fx.call(askHuman, { question: 'Which database?', options: ['sqlite', 'postgres'] }, { taskId });
    expect(asked).toMatchObject({ taskId, executionId, status: 'OPEN', parked: true });
    expect(fx.services.domain.executions.get(executionId).status).toBe('PAUSED');
    const shown = await fx.call(getHarnessMessage, { id: asked.messageId });
    expect(shown).toMatchObject({ kind: 'ASK', status: 'OPEN', deliveryStatus: 'LOCAL', outbound: null, actions: ['view', 'reply'] });
    expect(shown.body).toBe('Which database?\n\n1. sqlite\n2. postgres');
    expect(count('SELECT COUNT(*) AS n FROM harness_outbound')).toBe(0);
  });

  test('ask_human on a task with no running execution is refused and registers nothing', async () => {
    const taskId = fx.newTask();
    const before = count('SELECT COUNT(*) AS n FROM harness_messages');
    await expect(fx.call(askHuman, { question: 'anyone?', taskId })).rejects.toMatchObject({ code: 'task_not_running' });
    expect(count('SELECT COUNT(*) AS n FROM harness_messages')).toBe(before);
  });

  test('a task terminal cannot speak for another task', async () => {
    const mine = fx.newTask();
    const other = fx.newTask();
    await expect(fx.call(notifyHuman, { message: 'x', taskId: other }, { taskId: mine })).rejects.toMatchObject({ code: 'task_mismatch' });
  });

  test('notify_human registers a progress entry and changes no state', async () => {
    const taskId = fx.newTask();
    const executionId = fx.running(taskId);
    const notified = await fx.call(notifyHuman, { message: 'tests pass; moving on to docs' }, { taskId });
    expect(notified.status).toBe('NOTIFY_ONLY');
    expect(fx.services.domain.executions.get(executionId).status).toBe('RUNNING');
    expect(await fx.call(getHarnessMessage, { id: notified.messageId })).toMatchObject({ status: 'NOTIFY_ONLY', ask: null, actions: ['view'] });
  });

  test('of two replies racing for one OPEN question, exactly one answers it (two connections to the file)', async () => {
    const taskId = fx.newTask();
    fx.running(taskId);
    const asked = await fx.call(askHuman, { question: 'A or B?' }, { taskId });
    const other = new MessageStore(openDatabase(join(fx.home, 'svc.db')));
    const mine = harnessStores(fx.services).messages;
    const results = [mine.answer(asked.askId, 'A', 'cli'), other.answer(asked.askId, 'B', 'http')];
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(mine.openAskOf(taskId)).toBeUndefined();
    expect((await fx.call(getHarnessMessage, { id: asked.messageId })).ask).toMatchObject({ status: 'ANSWERED', reply: 'A', repliedVia: 'cli' });
  });

  test('reply_to_ask with no OPEN question answers no_pending and changes nothing', async () => {
    const taskId = fx.newTask();
    await expect(fx.call(replyToAsk, { taskId, reply: 'yes' })).rejects.toMatchObject({ code: 'no_pending' });
  });

  test('push_to_human with no active channel is refused and queues nothing', async () => {
    const taskId = fx.newTask();
    await expect(fx.call(pushToHuman, { message: 'hello', taskId })).rejects.toMatchObject({ code: 'no_active_channel' });
    expect(count('SELECT COUNT(*) AS n FROM harness_outbound')).toBe(0);
    const targets = await fx.call(listNotifyTargets, { taskId });
    expect(targets.channels).toEqual([]);
    expect(targets.howToSend.ask_human).toContain('nothing is sent');
  });
});

describe('durable push_to_human through an OpenClaw gateway', () => {
  beforeAll(async () => {
    await fx.call(createGateway, { name: 'claw', kind: 'openclaw', url: gateway.url, token: TOKEN });
    await fx.call(createChannel, {
      name: 'tg',
      gateway: 'claw',
      platform: 'telegram',
      homeTo: '-100777',
      homeThreadId: '5',
      ownerId: '4242',
      targets: [{ name: 'team', to: '-100888' }],
    });
  });

  test('message, outbox row and ask intent are written together; the task token is appended once', async () => {
    const taskId = fx.newTask();
    const pushed = await fx.call(pushToHuman, { message: 'Deploy now?', expectReply: true }, { taskId });
    expect(pushed).toMatchObject({ status: 'PENDING_DELIVERY', channel: 'tg', to: '-100777', threadId: '5', expectReply: true });
    const message = row('SELECT * FROM harness_messages WHERE id = ?', pushed.messageId);
    expect(message.body).toBe(`Deploy now?\n\n[[svc:task=${taskId}]]`);
    expect(row('SELECT state FROM harness_outbound WHERE id = ?', pushed.outboxId).state).toBe('PENDING');
    expect(row('SELECT status FROM harness_asks WHERE message_id = ?', pushed.messageId).status).toBe('INTENT');
    const again = await fx.call(pushToHuman, { message: `Already tagged [[svc:task=${taskId}]]`, to: 'team' }, { taskId });
    expect(row('SELECT body FROM harness_messages WHERE id = ?', again.messageId).body).toBe(`Already tagged [[svc:task=${taskId}]]`);
    expect(again).toMatchObject({ to: '-100888', threadId: null });
    expect(count('SELECT COUNT(*) AS n FROM harness_asks WHERE message_id = ?', again.messageId)).toBe(0);
  });

  test('a platform message id records the delivery mapping, opens the ask and parks the task in one step', async () => {
    const h = manualHarness();
    gateway.script = () => 'ok';
    await h.worker.drain();
    const taskId = fx.newTask();
    const executionId = fx.running(taskId);
    const pushed = await fx.call(pushToHuman, { message: 'Merge the branch?', expectReply: true }, { taskId });
    expect(await h.worker.drain()).toBe(1);
    const delivered = gateway.deliveries.get(pushed.outboxId);
    expect(delivered?.request).toMatchObject({ to: '-100777', threadId: '5', channel: 'telegram', message: `Merge the branch?\n\n[[svc:task=${taskId}]]` });
    const shown = await fx.call(getHarnessMessage, { id: pushed.messageId });
    expect(shown).toMatchObject({ status: 'OPEN', deliveryStatus: 'SENT', delivery: { platform: 'telegram', platformMessageId: delivered!.messageId } });
    expect(shown.sentAt).not.toBeNull();
    expect(row('SELECT task_id FROM harness_deliveries WHERE platform_message_id = ?', delivered!.messageId).task_id).toBe(taskId);
    expect(fx.services.domain.executions.get(executionId).status).toBe('PAUSED');
  });

  test('an explicit failure stays retryable at its nextAttemptAt and is sent once due', async () => {
    const h = manualHarness();
    const taskId = fx.newTask();
    const pushed = await fx.call(pushToHuman, { message: 'progress 50%' }, { taskId });
    gateway.script = () => 'unavailable';
    expect(await h.worker.drain()).toBe(1);
    const failed = await fx.call(getHarnessMessage, { id: pushed.messageId });
    expect(failed).toMatchObject({ deliveryStatus: 'PENDING_DELIVERY', outbound: { state: 'PENDING', attempts: 1, lastError: { code: 'gateway_unavailable' } } });
    const due = Date.parse(failed.outbound.nextAttemptAt);
    expect(due - Date.now()).toBeGreaterThan(1000);
    gateway.script = () => 'ok';
    expect(await h.worker.drain()).toBe(0);
    await new Promise((r) => setTimeout(r, due - Date.now() + 50));
    expect(await h.worker.drain()).toBe(1);
    expect(await fx.call(getHarnessMessage, { id: pushed.messageId })).toMatchObject({ deliveryStatus: 'SENT', outbound: { attempts: 2, lastError: null } });
  });

  test('OUTBOUND_DELIVERY_QUEUED is SENT_UNVERIFIED and never resent until a person asks', async () => {
    const h = manualHarness();
    const taskId = fx.newTask();
    const executionId = fx.running(taskId);
    const pushed = await fx.call(pushToHuman, { message: 'ship it?', expectReply: true }, { taskId });
    gateway.script = () => 'queued';
    await h.worker.drain();
    const requests = gateway.requests.filter((r) => r.idempotencyKey === pushed.outboxId).length;
    expect(requests).toBe(1);
    expect(await fx.call(getHarnessMessage, { id: pushed.messageId })).toMatchObject({
      status: 'SENT_UNVERIFIED',
      outbound: { state: 'SENT_UNVERIFIED', lastError: { code: 'outbound_delivery_queued' } },
      actions: ['view', 'resend'],
    });
    expect(fx.services.domain.executions.get(executionId).status).toBe('RUNNING');
    gateway.script = () => 'ok';
    await h.worker.drain();
    expect(gateway.requests.filter((r) => r.idempotencyKey === pushed.outboxId).length).toBe(1);

    const resent = await fx.call(resendHarnessMessage, { id: pushed.messageId });
    expect(resent.deliveryStatus).toBe('PENDING_DELIVERY');
    await h.worker.drain();
    expect(gateway.requests.filter((r) => r.idempotencyKey === pushed.outboxId).length).toBe(2);
    expect(await fx.call(getHarnessMessage, { id: pushed.messageId })).toMatchObject({ status: 'OPEN', deliveryStatus: 'SENT' });
  });

  test('a refusal stops retrying and shows why', async () => {
    const h = manualHarness();
    // A chat no channel names: a person allowed raw targets, so the gateway is the one to refuse it.
    const config = new SystemConfigStore(fx.services.db, MESSAGING_CONFIG_KEYS);
    config.set(RAW_PUSH_TARGETS_KEY, 'allow');
    const pushed = await fx.call(pushToHuman, { message: 'to nowhere', to: 'nowhere' }, { taskId: fx.newTask() }).finally(() => config.unset(RAW_PUSH_TARGETS_KEY));
    gateway.script = (r) => (r.to === 'nowhere' ? 'invalid' : 'ok');
    await h.worker.drain();
    expect(await fx.call(getHarnessMessage, { id: pushed.messageId })).toMatchObject({
      status: 'FAILED',
      outbound: { state: 'FAILED', lastError: { code: 'gateway_invalid_request', message: expect.stringContaining('unknown channel') } },
    });
    await h.worker.drain();
    expect(gateway.requests.filter((r) => r.idempotencyKey === pushed.outboxId).length).toBe(1);
  });

  test('a send whose sender died mid-send becomes SENT_UNVERIFIED, not sent again', async () => {
    const h = manualHarness();
    const pushed = await fx.call(pushToHuman, { message: 'orphaned' }, { taskId: fx.newTask() });
    // What a killed sender leaves behind: the row claimed under a lease by a process that is gone.
    fx.services.db
      .prepare("UPDATE harness_outbound SET state = 'SENDING', lease_owner = ?, lease_until = ?, attempts = 1 WHERE id = ?")
      .run('999999999/gone', Date.now() + 60_000, pushed.outboxId);
    expect(h.worker.recoverAbandoned()).toBe(1);
    await h.worker.drain();
    expect(await fx.call(getHarnessMessage, { id: pushed.messageId })).toMatchObject({
      status: 'SENT_UNVERIFIED',
      outbound: { state: 'SENT_UNVERIFIED', lastError: { code: 'sender_lost' } },
    });
    expect(gateway.requests.some((r) => r.idempotencyKey === pushed.outboxId)).toBe(false);
  });

  test('list_notify_targets shows the channel, its gateway and how each tool behaves, never the token', async () => {
    const targets = await fx.call(listNotifyTargets, {}, { taskId: fx.newTask() });
    expect(targets.channels).toEqual([
      { channel: 'tg', gateway: 'claw', gatewayKind: 'openclaw', platform: 'telegram', home: { to: '-100777', threadId: '5' }, targets: [{ name: 'team', to: '-100888' }], default: true },
    ]);
    expect(JSON.stringify(targets)).not.toContain(TOKEN);
  });
});
