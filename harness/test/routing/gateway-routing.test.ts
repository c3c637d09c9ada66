// Inbound routing over a real libsql database: stored once, sender policy from the channels, the
// resolution order, read-only queries, and the Workbench's completion tools.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  completeGatewayDiscussion,
  completeGatewayWork,
  confirmGatewayTaskCreated,
  diagnoseGatewayRequest,
  provisionRemoteProject,
  resolveGatewayTaskContext,
  routeGatewayMessage,
  routeGatewayQuery,
  routingStores,
} from '../../src/routing/index.js';
import { openHarnessFixture, type HarnessFixture } from '../support/harness-fixture.js';

const OWNER = '4242';
const GROUP = '-100777';
let fx: HarnessFixture;
const msg = (id: string, extra: Record<string, unknown> = {}) => ({ platform: 'telegram', chatId: OWNER, senderId: OWNER, platformMessageId: id, text: 'hello there', ...extra });
const count = (table: string) => (fx.services.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

beforeEach(async () => {
  fx = await openHarnessFixture();
  const stores = routingStores(fx.services);
  const gateway = stores.gateways.add({ name: 'herm', kind: 'hermes', command: '/bin/true' } as never);
  stores.channels.add({ name: 'tg', gatewayId: gateway.id, platform: 'telegram', homeTo: OWNER, ownerId: OWNER, trustedGroups: [GROUP], projectId: fx.projectId });
});
afterEach(async () => fx.close());

describe('route_gateway_message', () => {
  test('stores the message once and hands the project Workbench one discussion event', async () => {
    const first = await fx.call(routeGatewayMessage, msg('m1'));
    expect(first).toMatchObject({ status: 'routed', projectId: fx.projectId, event: 'GATEWAY_DISCUSSION_REQUEST', routedBy: 'channel_default' });
    const again = await fx.call(routeGatewayMessage, msg('m1'));
    expect(again).toMatchObject({ status: 'already_processed', inboundId: first.inboundId, noOp: true });
    expect(count('harness_gateway_inbound')).toBe(1);
    expect(count('harness_workbench_events')).toBe(1);
    const workbench = fx.services.domain.tasks.get(first.workbenchTaskId);
    expect(workbench.title).toBe('Workbench');
  });

  test('a duplicate while the first is still routing answers in_progress with noOp', async () => {
    const stores = routingStores(fx.services);
    stores.inbound.claim({ ...msg('m2'), threadId: null, rootMessageId: null, channelId: 1, kind: 'message', request: 'discussion' } as never);
    expect(await fx.call(routeGatewayMessage, msg('m2'))).toMatchObject({ status: 'in_progress', noOp: true });
  });

  test('a row whose routing lease ran out is routed again on the same row', async () => {
    const stores = routingStores(fx.services);
    const claim = stores.inbound.claim({ ...msg('m3'), threadId: null, rootMessageId: null, channelId: 1, kind: 'message', request: 'discussion' } as never, -1);
    const answer = await fx.call(routeGatewayMessage, msg('m3'));
    expect(answer).toMatchObject({ status: 'routed', inboundId: claim.inbound.id });
    expect(stores.inbound.get(claim.inbound.id).attempts).toBe(2);
  });

  test('legacy mode DIRECT is refused and stores nothing', async () => {
    await expect(fx.call(routeGatewayMessage, msg('d1', { mode: 'DIRECT' }))).rejects.toMatchObject({ code: 'direct_not_supported' });
    expect(count('harness_gateway_inbound')).toBe(0);
  });

  test('a sender who is not the configured owner is refused, whatever the caller says', async () => {
    await expect(fx.call(routeGatewayMessage, msg('x1', { senderId: '999', chatId: GROUP }))).rejects.toMatchObject({ code: 'owner_required' });
    expect(count('harness_gateway_inbound')).toBe(0);
  });

  test('resolution order: a task token wins over the thread binding, the binding over the channel default', async () => {
    mkdirSync(join(fx.home, 'other'));
    const other = fx.services.domain.projects.create({ workspaceId: fx.workspaceId, name: 'other', repoPath: join(fx.home, 'other') });
    // Widen the channel to the workspace so both projects are visible.
    fx.services.db.prepare('UPDATE harness_channels SET project_id = NULL').run();
    const bound = await fx.call(routeGatewayMessage, msg('t1', { threadId: '7', project: 'other' }));
    expect(bound).toMatchObject({ projectId: other.id, routedBy: 'explicit_project' });
    const inThread = await fx.call(routeGatewayMessage, msg('t2', { threadId: '7', text: 'and then?' }));
    expect(inThread).toMatchObject({ projectId: other.id, routedBy: 'conversation' });
    const task = fx.newTask('Fix the bug');
    const token = await fx.call(routeGatewayMessage, msg('t3', { threadId: '7', text: `about [[svc:task=${task}]]` }));
    expect(token).toMatchObject({ projectId: fx.projectId, taskId: task, routedBy: 'task_binding' });
    // No thread: the chat + sender discussion reuses the sender's recent project.
    const recent = await fx.call(routeGatewayMessage, msg('t4', { text: 'status please' }));
    expect(recent).toMatchObject({ projectId: fx.projectId, routedBy: 'recent_project' });
    const sessions = fx.services.db.prepare('SELECT thread_key FROM harness_conversations ORDER BY id').all();
    expect(sessions).toEqual([{ thread_key: 'thread:7' }, { thread_key: `sender:${OWNER}` }]);
  });
});

describe('route_gateway_query', () => {
  test('answers a trusted group read-only and creates nothing', async () => {
    fx.newTask('Write docs');
    const before = ['harness_gateway_inbound', 'harness_conversations', 'harness_workbench_events', 'tasks', 'harness_recent_projects'].map(count);
    const answer = await fx.call(routeGatewayQuery, { platform: 'telegram', chatId: GROUP, senderId: '555', platformMessageId: 'q1', text: 'what is open?' });
    expect(answer.role).toBe('NON_OWNER');
    expect(answer.context).toContain('Write docs');
    expect(['harness_gateway_inbound', 'harness_conversations', 'harness_workbench_events', 'tasks', 'harness_recent_projects'].map(count)).toEqual(before);
  });

  test('refuses a chat no channel trusts', async () => {
    await expect(fx.call(routeGatewayQuery, { platform: 'telegram', chatId: '-1', senderId: '555', platformMessageId: 'q2', text: 'hi' })).rejects.toMatchObject({ code: 'chat_not_authorized' });
  });
});

describe('Workbench completion tools', () => {
  test('a discussion is answered once through the outbox to the same chat and thread', async () => {
    const routed = await fx.call(routeGatewayMessage, msg('c1', { threadId: '9' }));
    const first = await fx.call(completeGatewayDiscussion, { inboundId: routed.inboundId, text: 'Here is my answer' });
    const second = await fx.call(completeGatewayDiscussion, { inboundId: routed.inboundId, text: 'Here is my answer' });
    expect(first.replied).toBe('queued');
    expect(second).toMatchObject({ replied: 'already_replied', messageId: first.messageId });
    const row = fx.services.db.prepare('SELECT m.body, m.target_to, m.target_thread, o.state FROM harness_messages m JOIN harness_outbound o ON o.message_id = m.id').all();
    expect(row.map((r) => ({ ...(r as object) }))).toEqual([{ body: `Here is my answer\n\n[[svc:task=${routed.workbenchTaskId}]]`, target_to: OWNER, target_thread: '9', state: 'PENDING' }]);
  });

  test('a work request: confirm the created task, then DONE and FINAL_RESULT commit together', async () => {
    const routed = await fx.call(routeGatewayMessage, msg('w1', { kind: 'work', text: 'build the export' }));
    expect(routed.event).toBe('GATEWAY_WORK_REQUEST');
    const child = fx.services.domain.tasks.create({ projectId: fx.projectId, title: 'Export', parentTaskId: routed.workbenchTaskId });
    await fx.call(confirmGatewayTaskCreated, { inboundId: routed.inboundId, taskId: child.id });
    const done = await fx.call(completeGatewayWork, { taskId: child.id, result: 'Export shipped' });
    expect(done).toMatchObject({ status: 'DONE', completed: 'queued' });
    expect(fx.services.domain.tasks.get(child.id).status).toBe('DONE');
    const final = fx.services.db.prepare("SELECT body, target_to, target_reply_to FROM harness_messages WHERE kind = 'FINAL_RESULT'").all() as { body: string; target_to: string; target_reply_to: string }[];
    expect(final).toHaveLength(1);
    // An answer to the request message itself, where the gateway can send replies.
    expect(final[0]!.target_reply_to).toBe('w1');
    expect(final[0]!.body).toContain(`[[svc:task=${child.id}]]`);
    expect(await fx.call(completeGatewayWork, { taskId: child.id, result: 'Export shipped' })).toMatchObject({ completed: 'already_completed', messageId: done.messageId });
    const timeline = await fx.call(diagnoseGatewayRequest, { platform: 'telegram', chatId: OWNER, senderId: OWNER, inboundId: routed.inboundId });
    expect(timeline.stages.map((s: { stage: string }) => s.stage)).toEqual(['inbound', 'routing', 'workbench_event', 'workbench_runtime', 'task', 'delivery']);
  });

  test("from a task terminal, only the project's Workbench (or the task's parent) may use the Workbench's gateway tools", async () => {
    const work = await fx.call(routeGatewayMessage, msg('w2', { kind: 'work', text: 'build the report' }));
    const talk = await fx.call(routeGatewayMessage, msg('c2'));
    const child = fx.services.domain.tasks.create({ projectId: fx.projectId, title: 'Report', parentTaskId: work.workbenchTaskId });
    const stranger = fx.newTask('Another task');
    const as = (taskId: number) => ({ via: 'mcp' as const, taskId, mcpProfile: 'task' });
    await expect(fx.call(confirmGatewayTaskCreated, { inboundId: work.inboundId, taskId: child.id }, as(stranger))).rejects.toMatchObject({ code: 'not_the_workbench' });
    await expect(fx.call(completeGatewayDiscussion, { inboundId: talk.inboundId, text: 'not mine to say' }, as(stranger))).rejects.toMatchObject({ code: 'not_the_workbench' });
    // The child cannot pass its own review.
    await expect(fx.call(completeGatewayWork, { taskId: child.id, result: 'self-approved' }, as(child.id))).rejects.toMatchObject({ code: 'not_the_workbench' });
    expect(count('harness_messages')).toBe(0);
    expect(fx.services.domain.tasks.get(child.id).status).toBe('TODO');
    // The Workbench itself may.
    await fx.call(confirmGatewayTaskCreated, { inboundId: work.inboundId, taskId: child.id }, as(work.workbenchTaskId));
    expect(await fx.call(completeGatewayDiscussion, { inboundId: talk.inboundId, text: 'answer' }, as(work.workbenchTaskId))).toMatchObject({ replied: 'queued' });
    expect(await fx.call(completeGatewayWork, { taskId: child.id, result: 'Report shipped' }, as(work.workbenchTaskId))).toMatchObject({ status: 'DONE', completed: 'queued' });
  });

  test('a task with a live execution is not completed and nothing is queued', async () => {
    const child = fx.newTask('Busy');
    fx.running(child);
    await expect(fx.call(completeGatewayWork, { taskId: child, result: 'x' })).rejects.toMatchObject({ code: 'task_has_live_execution' });
    expect(count('harness_messages')).toBe(0);
    expect(fx.services.domain.tasks.get(child).status).toBe('TODO');
  });

  test('resolve_gateway_task_context reads the task a token names and stores nothing', async () => {
    const task = fx.newTask('Ask me');
    const context = await fx.call(resolveGatewayTaskContext, { ...msg('r1'), text: `re [[svc:task=${task}]]` });
    expect(context).toMatchObject({ subjectTaskId: task, taskStatus: 'TODO', openAsk: null });
    expect(count('harness_gateway_inbound')).toBe(0);
  });
});

describe('provision_remote_project', () => {
  test('clones a repository once with the system git and registers it; a second call is the same project', async () => {
    const source = join(fx.home, 'src-repo');
    mkdirSync(source);
    execFileSync('git', ['init', '-q', source]);
    writeFileSync(join(source, 'README.md'), 'hi\n');
    execFileSync('git', ['-C', source, '-c', 'user.email=a@b', '-c', 'user.name=a', 'add', '.']);
    execFileSync('git', ['-C', source, '-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-qm', 'init']);
    const bare = join(fx.home, 'remote.git');
    execFileSync('git', ['clone', '-q', '--bare', source, bare]);
    const input = { platform: 'telegram', chatId: OWNER, senderId: OWNER, remoteUrl: `file://${bare}`, mode: 'REVIEW_ONLY' };
    const savedHome = process.env.SVC_HOME;
    process.env.SVC_HOME = fx.home;
    try {
      const first = await fx.call(provisionRemoteProject, input);
      const second = await fx.call(provisionRemoteProject, input);
      expect(first).toMatchObject({ created: true, name: 'remote', mode: 'REVIEW_ONLY' });
      expect(second).toMatchObject({ created: false, projectId: first.projectId });
      expect(execFileSync('git', ['-C', first.repoPath, 'log', '--format=%s']).toString().trim()).toBe('init');
      await expect(fx.call(provisionRemoteProject, { ...input, senderId: '1' })).rejects.toMatchObject({ code: 'owner_required' });
    } finally {
      // Assigning undefined to process.env stores the string "undefined", which the next test file in this
      // process would inherit.
      if (savedHome === undefined) delete process.env.SVC_HOME;
      else process.env.SVC_HOME = savedHome;
    }
  });
});

describe('observe_gateway_maintenance', () => {
  test('counts terminal rows older than seven days and stuck ones, and removes nothing', async () => {
    const { observeGatewayMaintenance } = await import('../../src/routing/index.js');
    await fx.call(routeGatewayMessage, msg('old'));
    await fx.call(routeGatewayMessage, msg('new'));
    const stores = routingStores(fx.services);
    stores.inbound.claim({ ...msg('stuck'), threadId: null, rootMessageId: null, channelId: 1, kind: 'message', request: 'discussion' } as never, -1);
    fx.services.db.prepare("UPDATE harness_gateway_inbound SET updated_at = '2020-01-01T00:00:00.000Z' WHERE platform_message_id = 'old'").run();
    const seen = await fx.call(observeGatewayMaintenance, {});
    expect(seen.inbound).toEqual({ total: 3, terminalOverSevenDays: 1, stuck: 1 });
    expect(seen.pendingEvents).toBe(2);
    expect(count('harness_gateway_inbound')).toBe(3);
  });
});

describe('recover_gateway_request and get_gateway_runtime_health', () => {
  test('a FAILED reply is queued again; a SENT_UNVERIFIED one is never resent', async () => {
    const { recoverGatewayRequest } = await import('../../src/routing/index.js');
    const routed = await fx.call(routeGatewayMessage, msg('rc1'));
    const reply = await fx.call(completeGatewayDiscussion, { inboundId: routed.inboundId, text: 'answer' });
    const owner = { platform: 'telegram', chatId: OWNER, senderId: OWNER, inboundId: routed.inboundId };
    fx.services.db.prepare("UPDATE harness_outbound SET state = 'FAILED' WHERE message_id = ?").run(reply.messageId);
    expect(await fx.call(recoverGatewayRequest, owner)).toMatchObject({ routing: 'PROCESSED', delivery: 'requeued' });
    expect((fx.services.db.prepare('SELECT state FROM harness_outbound WHERE message_id = ?').get(reply.messageId) as { state: string }).state).toBe('PENDING');
    fx.services.db.prepare("UPDATE harness_outbound SET state = 'SENT_UNVERIFIED' WHERE message_id = ?").run(reply.messageId);
    await expect(fx.call(recoverGatewayRequest, owner)).rejects.toMatchObject({ code: 'not_resendable' });
    expect((fx.services.db.prepare('SELECT state FROM harness_outbound WHERE message_id = ?').get(reply.messageId) as { state: string }).state).toBe('SENT_UNVERIFIED');
    await expect(fx.call(recoverGatewayRequest, { ...owner, senderId: '1' })).rejects.toMatchObject({ code: 'owner_required' });
  });

  test('health names each gateway and its state without its token', async () => {
    const { getGatewayRuntimeHealth } = await import('../../src/routing/index.js');
    const stores = routingStores(fx.services);
    stores.gateways.add({ name: 'claw', kind: 'openclaw', url: 'ws://127.0.0.1:9', token: 'secret-token-value-123' } as never);
    const health = await fx.call(getGatewayRuntimeHealth, {});
    expect(health.gateways.map((g: { name: string }) => g.name).sort()).toEqual(['claw', 'herm']);
    expect(health.gateways.find((g: { name: string }) => g.name === 'claw').state).toBe('unreachable');
    expect(JSON.stringify(health)).not.toContain('secret-token-value-123');
  });
});
