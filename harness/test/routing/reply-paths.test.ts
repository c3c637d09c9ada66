// Replies about a task and the routing order, over a real libsql database: a reply without a token
// is tied to its task by the delivery mapping of the message it answers; an explicit project beats
// and moves a binding; a DM's project follows the recent-project rule; only the owner answers an ask
// through a gateway.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { askHuman, pushToHuman, replyToAsk } from '../../src/messaging/index.js';
import { continueBoundTask, resolveGatewayTaskContext, routeGatewayMessage, routeGatewayQuery, routingStores } from '../../src/routing/index.js';
import { openHarnessFixture, type HarnessFixture } from '../support/harness-fixture.js';

const OWNER = '4242';
const GROUP = '-100777';
let fx: HarnessFixture;
const msg = (id: string, extra: Record<string, unknown> = {}) => ({ platform: 'telegram', chatId: OWNER, senderId: OWNER, platformMessageId: id, text: 'hello there', ...extra });
const count = (table: string) => (fx.services.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

/** A message svc sent for the task and its delivery mapping, as the outbox records a send. */
async function delivered(taskId: number, platformMessageId: string, expectReply = false): Promise<number> {
  const pushed = await fx.call(pushToHuman, { taskId, message: expectReply ? 'Which database?' : 'Done: the export works', expectReply });
  fx.services.db
    .prepare(
      `INSERT INTO harness_deliveries (outbound_id, message_id, task_id, gateway_id, platform, chat_id, thread_id, platform_message_id, created_at)
       VALUES (?, ?, ?, 1, 'telegram', ?, NULL, ?, ?)`,
    )
    .run(pushed.outboxId ?? 'out', pushed.messageId, taskId, OWNER, platformMessageId, new Date().toISOString());
  return pushed.messageId;
}

beforeEach(async () => {
  fx = await openHarnessFixture();
  const stores = routingStores(fx.services);
  const gateway = stores.gateways.add({ name: 'herm', kind: 'hermes', command: '/bin/true' } as never);
  stores.channels.add({ name: 'tg', gatewayId: gateway.id, platform: 'telegram', homeTo: OWNER, ownerId: OWNER, trustedGroups: [GROUP], projectId: null, workspaceId: fx.workspaceId } as never);
});
afterEach(async () => fx.close());

describe('a reply without a token, tied by the delivery mapping', () => {
  test('route_gateway_message routes it to the task the replied-to message was sent for', async () => {
    const task = fx.newTask('Export');
    await delivered(task, '500');
    const routed = await fx.call(routeGatewayMessage, msg('r1', { replyToMessageId: '500', text: 'and the CSV too' }));
    expect(routed).toMatchObject({ status: 'routed', taskId: task, routedBy: 'task_binding' });
  });

  test('resolve_gateway_task_context names the task, the message replied to, the latest result and svcContext, and stores nothing', async () => {
    const task = fx.newTask('Export');
    const sent = await delivered(task, '501');
    fx.services.db.prepare("UPDATE harness_messages SET kind = 'FINAL_RESULT' WHERE id = ?").run(sent);
    const context = await fx.call(resolveGatewayTaskContext, { ...msg('r2', { text: 'what did it change?' }), replyToMessageId: '501', threadId: '9' });
    expect(context).toMatchObject({
      subjectTaskId: task,
      title: 'Export',
      openAsk: null,
      latestResult: 'Done: the export works',
      repliedTo: { messageId: sent, kind: 'FINAL_RESULT', askStatus: null },
      svcContext: {
        task: { id: task, title: 'Export', status: 'TODO' },
        project: { id: fx.projectId, name: 'demo' },
        thread: { platform: 'telegram', chatId: OWNER, threadId: '9' },
        allowedTools: expect.arrayContaining(['get_task', 'resolve_gateway_task_context']),
        mayChangeServiceState: false,
      },
    });
    expect(count('harness_gateway_inbound')).toBe(0);
  });

  test('a reply to a message that maps to no task is not bound', async () => {
    await expect(fx.call(resolveGatewayTaskContext, { ...msg('r3'), replyToMessageId: '999' })).rejects.toMatchObject({ code: 'task_not_bound' });
  });

  test('continue_bound_task finds the task by the mapping and needs the running service to type', async () => {
    const task = fx.newTask('Export');
    await delivered(task, '502');
    await expect(fx.call(continueBoundTask, msg('r4', { replyToMessageId: '502', text: 'continue' }))).rejects.toMatchObject({ code: 'server_not_running' });
  });

  test('a reply to an ask that was already answered says so in repliedTo', async () => {
    const task = fx.newTask('Decide');
    fx.running(task);
    const ask = await delivered(task, '503', true);
    const stores = routingStores(fx.services);
    stores.messages.openAsk(ask, task);
    stores.messages.answer(ask, 'postgres', 'gateway');
    const context = await fx.call(resolveGatewayTaskContext, { ...msg('r5', { text: 'sqlite after all' }), replyToMessageId: '503' });
    expect(context).toMatchObject({ openAsk: null, repliedTo: { messageId: ask, kind: 'PUSH', askStatus: 'ANSWERED', answeredAt: expect.any(String) } });
  });
});

describe('routing order', () => {
  async function twoProjects() {
    mkdirSync(join(fx.home, 'b'));
    const b = fx.services.domain.projects.create({ workspaceId: fx.workspaceId, name: 'beta', repoPath: join(fx.home, 'b') });
    return { a: fx.projectId, b: b.id };
  }

  test('in a DM, naming another project moves the conversation there, and the next unnamed message stays with it', async () => {
    const { a, b } = await twoProjects();
    expect(await fx.call(routeGatewayMessage, msg('d1', { project: 'demo', text: 'work on the parser' }))).toMatchObject({ projectId: a, routedBy: 'explicit_project' });
    expect(await fx.call(routeGatewayMessage, msg('d2', { text: 'and the tests' }))).toMatchObject({ projectId: a, routedBy: 'recent_project' });
    expect(await fx.call(routeGatewayMessage, msg('d3', { project: 'beta', text: 'now the docs' }))).toMatchObject({ projectId: b, routedBy: 'explicit_project' });
    expect(await fx.call(routeGatewayMessage, msg('d4', { text: 'one more thing' }))).toMatchObject({ projectId: b, routedBy: 'recent_project' });
    // One session per chat and sender, now bound to B.
    expect(fx.services.db.prepare('SELECT thread_key, project_id FROM harness_conversations').all()).toEqual([{ thread_key: `sender:${OWNER}`, project_id: b }]);
  });

  test('a chat message longer than identify_project reads is placed by its start and kept whole', async () => {
    const { b } = await twoProjects();
    const text = `beta: ${'the export drops rows when a field holds a newline. '.repeat(400)}`.slice(0, 20_000);
    expect(await fx.call(routeGatewayMessage, msg('l1', { text }))).toMatchObject({ projectId: b, routedBy: 'identify_project' });
    expect(fx.services.db.prepare("SELECT text FROM harness_gateway_inbound WHERE platform_message_id = 'l1'").get()).toMatchObject({ text });
    expect(await fx.call(routeGatewayQuery, { platform: 'telegram', chatId: GROUP, senderId: '777', platformMessageId: 'l2', text })).toMatchObject({ projectId: b, projectName: 'beta' });
  });

  test('in a thread, an explicit project beats the thread binding and moves it', async () => {
    const { a, b } = await twoProjects();
    await fx.call(routeGatewayMessage, msg('t1', { threadId: '7', project: 'demo' }));
    expect(await fx.call(routeGatewayMessage, msg('t2', { threadId: '7', text: 'go on' }))).toMatchObject({ projectId: a, routedBy: 'conversation' });
    expect(await fx.call(routeGatewayMessage, msg('t3', { threadId: '7', project: 'beta' }))).toMatchObject({ projectId: b, routedBy: 'explicit_project' });
    expect(await fx.call(routeGatewayMessage, msg('t4', { threadId: '7', text: 'go on' }))).toMatchObject({ projectId: b, routedBy: 'conversation' });
  });

  test('a DM whose project was last used more than seven days ago is not held by it', async () => {
    await twoProjects();
    await fx.call(routeGatewayMessage, msg('o1', { project: 'beta' }));
    const old = new Date(Date.now() - 8 * 24 * 3600_000).toISOString();
    fx.services.db.prepare('UPDATE harness_recent_projects SET used_at = ?').run(old);
    fx.services.db.prepare('UPDATE harness_conversations SET updated_at = ?').run(old);
    // Two projects visible, nothing identifies one, no default: the person is asked.
    expect(await fx.call(routeGatewayMessage, msg('o2', { text: 'hello again' }))).toMatchObject({ status: 'needs_project', projectId: null });
  });
});

describe('reply_to_ask through a gateway', () => {
  test('a sender who is not the owner is refused with owner_required and the ask stays OPEN', async () => {
    const task = fx.newTask('Decide');
    fx.running(task);
    await fx.call(askHuman, { taskId: task, question: 'Which database?' });
    await expect(fx.call(replyToAsk, { taskId: task, reply: 'mongo', platform: 'telegram', chatId: GROUP, senderId: '555' })).rejects.toMatchObject({ code: 'owner_required' });
    await expect(fx.call(replyToAsk, { taskId: task, reply: 'mongo', platform: 'telegram', senderId: OWNER })).rejects.toMatchObject({ code: 'invalid_request' });
    expect(routingStores(fx.services).messages.openAskOf(task)).toBeDefined();
  });
});

describe('get_gateway_runtime_health', () => {
  test('adds the last log lines naming each unhealthy gateway and each stuck request, redacted and bounded', async () => {
    const { getGatewayRuntimeHealth } = await import('../../src/routing/index.js');
    const stores = routingStores(fx.services);
    const claw = stores.gateways.add({ name: 'claw', kind: 'openclaw', url: 'ws://127.0.0.1:9', token: 'oc-secret-token-value-123' } as never);
    const failed = stores.inbound.claim({ ...msg('h1'), threadId: null, rootMessageId: null, channelId: 1, kind: 'message', request: 'discussion' } as never);
    stores.inbound.failed(failed.inbound.id, new Error('boom'));
    const log = join(fx.home, 'logs', 'svc.log');
    mkdirSync(join(fx.home, 'logs'), { recursive: true });
    const line = (fields: object) => appendFileSync(log, `${JSON.stringify({ time: new Date().toISOString(), level: 'info', ...fields })}\n`);
    for (let i = 1; i <= 8; i++) line({ message: 'outbox send', gatewayId: claw.id, attempt: i, result: 'PENDING', reason: `refused with oc-secret-token-value-123 ${'x'.repeat(600)}` });
    line({ message: 'outbox send', gatewayId: 999, attempt: 1 });
    line({ message: 'gateway request not routed', inboundId: failed.inbound.id, code: 'internal' });
    line({ message: 'gateway request not routed', inboundId: failed.inbound.id + 1000, code: 'other' });

    const health = await fx.call(getGatewayRuntimeHealth, {});
    const unhealthy = health.gateways.find((g: { name: string }) => g.name === 'claw');
    expect(unhealthy.state).toBe('unreachable');
    expect(unhealthy.logLines).toHaveLength(5);
    expect(unhealthy.logLines.map((l: string) => Number(/"attempt":(\d+)/.exec(l)![1]))).toEqual([4, 5, 6, 7, 8]);
    for (const l of unhealthy.logLines) expect(l.length).toBeLessThanOrEqual(400);
    expect(health.stuckRequests).toEqual([
      { inboundId: failed.inbound.id, state: 'FAILED', lastError: 'internal', updatedAt: expect.any(String), logLines: [expect.stringContaining('gateway request not routed')] },
    ]);
    expect(JSON.stringify(health)).not.toContain('oc-secret-token-value-123');
  });
});
