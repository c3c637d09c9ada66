// The refusals and less-travelled answers of the gateway operations, each through the operation a
// plugin or the Workbench calls, over a real libsql database: what a caller gets back when the
// request is wrong, and that nothing is stored or changed by it.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { pushToHuman } from '../../src/messaging/index.js';
import {
  completeGatewayDiscussion,
  completeGatewayWork,
  continueBoundTask,
  confirmGatewayTaskCreated,
  diagnoseGatewayRequest,
  getGatewayRuntimeHealth,
  provisionRemoteProject,
  routeGatewayMessage,
  routeGatewayQuery,
  routingStores,
} from '../../src/routing/index.js';
import { addTelegramChannel, openHarnessFixture, type HarnessFixture } from '../support/harness-fixture.js';

const OWNER = '4242';
let fx: HarnessFixture;
const msg = (id: string, extra: Record<string, unknown> = {}) => ({ platform: 'telegram', chatId: OWNER, senderId: OWNER, platformMessageId: id, text: 'hello there', ...extra });
const count = (table: string) => (fx.services.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

beforeEach(async () => {
  fx = await openHarnessFixture();
  addTelegramChannel(fx, OWNER);
});
afterEach(async () => fx.close());

describe('confirm_gateway_task_created refuses what does not fit', () => {
  test('a discussion, a task of another project, and a second task for one request', async () => {
    const discussion = await fx.call(routeGatewayMessage, msg('d1', { project: 'demo' }));
    const task = fx.newTask('Export');
    await expect(fx.call(confirmGatewayTaskCreated, { inboundId: discussion.inboundId, taskId: task })).rejects.toMatchObject({ code: 'not_a_work_request' });

    const work = await fx.call(routeGatewayMessage, msg('w1', { kind: 'work', project: 'demo', text: 'add CSV export' }));
    const other = fx.services.domain.projects.create({ workspaceId: fx.workspaceId, name: 'beta', repoPath: `${fx.home}/repo` });
    const elsewhere = fx.services.domain.tasks.create({ projectId: other.id, title: 'Elsewhere' }).id;
    await expect(fx.call(confirmGatewayTaskCreated, { inboundId: work.inboundId, taskId: elsewhere })).rejects.toMatchObject({ code: 'invalid_request' });

    const first = fx.newTask('CSV export');
    expect(await fx.call(confirmGatewayTaskCreated, { inboundId: work.inboundId, taskId: first })).toEqual({ inboundId: work.inboundId, taskId: first });
    await expect(fx.call(confirmGatewayTaskCreated, { inboundId: work.inboundId, taskId: fx.newTask('Another') })).rejects.toMatchObject({
      code: 'already_confirmed',
      details: { taskId: first },
    });
    expect(routingStores(fx.services).inbound.get(work.inboundId).taskId).toBe(first);
  });

  test('over MCP, a caller that is no task terminal is refused: only the Workbench confirms', async () => {
    const work = await fx.call(routeGatewayMessage, msg('w2', { kind: 'work', project: 'demo', text: 'add a report' }));
    await expect(fx.call(confirmGatewayTaskCreated, { inboundId: work.inboundId, taskId: fx.newTask() }, { via: 'mcp' })).rejects.toMatchObject({ code: 'workbench_caller_required' });
    expect(routingStores(fx.services).inbound.get(work.inboundId).taskId).toBeNull();
  });

  test('an inbound id that does not exist is inbound_not_found', async () => {
    await expect(fx.call(confirmGatewayTaskCreated, { inboundId: 999, taskId: fx.newTask() })).rejects.toMatchObject({ code: 'inbound_not_found' });
  });
});

describe('complete_gateway_work', () => {
  test('a task no active channel serves is refused with no_active_channel and stays open', async () => {
    const stores = routingStores(fx.services);
    const channel = stores.channels.list()[0]!;
    fx.services.db.prepare('UPDATE harness_channels SET active = 0 WHERE id = ?').run(channel.id);
    const task = fx.newTask('Report');
    await expect(fx.call(completeGatewayWork, { taskId: task, result: 'done' })).rejects.toMatchObject({ code: 'no_active_channel' });
    expect(fx.services.domain.tasks.get(task).status).not.toBe('DONE');
    expect(count('harness_messages')).toBe(0);
  });
});

describe('complete_gateway_discussion', () => {
  test('a work request is not a discussion to answer, and nothing is queued', async () => {
    const work = await fx.call(routeGatewayMessage, msg('w3', { kind: 'work', project: 'demo', text: 'add a report' }));
    await expect(fx.call(completeGatewayDiscussion, { inboundId: work.inboundId, text: 'here you go' })).rejects.toMatchObject({ code: expect.any(String) });
    expect(count('harness_messages')).toBe(0);
  });
});

describe('continue_bound_task', () => {
  test('a message bound to no task (no token, no reply, no taskId) is task_not_bound and stores nothing', async () => {
    await expect(fx.call(continueBoundTask, msg('c1', { text: 'continue' }))).rejects.toMatchObject({ code: 'task_not_bound' });
    expect(count('harness_gateway_inbound')).toBe(0);
  });
});

describe('diagnose_gateway_request', () => {
  test('a platform message svc never received is inbound_not_found', async () => {
    await expect(fx.call(diagnoseGatewayRequest, { platform: 'telegram', chatId: OWNER, senderId: OWNER, platformMessageId: 'never-sent' })).rejects.toMatchObject({
      code: 'inbound_not_found',
    });
  });
});

describe('route_gateway_message', () => {
  test('a reply chain without a thread is kept together by the root message it names', async () => {
    const first = await fx.call(routeGatewayMessage, msg('t1', { project: 'demo', rootMessageId: 'root-1' }));
    const next = await fx.call(routeGatewayMessage, msg('t2', { rootMessageId: 'root-1', text: 'and another thing' }));
    expect(next).toMatchObject({ status: 'routed', projectId: first.projectId });
    const keys = fx.services.db.prepare('SELECT thread_key FROM harness_conversations').all() as { thread_key: string }[];
    expect(keys.map((k) => k.thread_key)).toContain('root:root-1');
  });

  test('a message naming an unknown project is refused and the row is marked failed, not lost', async () => {
    await expect(fx.call(routeGatewayMessage, msg('u1', { project: 'nope' }))).rejects.toMatchObject({ code: expect.any(String) });
    const row = fx.services.db.prepare("SELECT state FROM harness_gateway_inbound WHERE platform_message_id = 'u1'").get() as { state: string } | undefined;
    expect(row?.state).toBe('FAILED');
  });
});

describe('route_gateway_query', () => {
  test('a named project answers from it; with several projects and no match it asks which one is meant', async () => {
    fx.services.domain.projects.create({ workspaceId: fx.workspaceId, name: 'beta', repoPath: `${fx.home}/repo` });
    const named = await fx.call(routeGatewayQuery, { ...msg('q1', { text: 'what is open?' }), project: 'demo' });
    expect(named).toMatchObject({ projectId: fx.projectId, projectName: 'demo' });
    const unnamed = await fx.call(routeGatewayQuery, msg('q2', { text: 'zzz qqq' }));
    expect(unnamed).toMatchObject({ projectId: null, projectName: null, context: expect.stringContaining('ask which project') });
  });
});

describe('provision_remote_project', () => {
  test('a remoteUrl that is not a Git URL (an option, or with spaces) is refused and nothing is cloned', async () => {
    const input = { platform: 'telegram', chatId: OWNER, senderId: OWNER, mode: 'REVIEW_ONLY' };
    await expect(fx.call(provisionRemoteProject, { ...input, remoteUrl: '--upload-pack=touch /tmp/x' })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(fx.call(provisionRemoteProject, { ...input, remoteUrl: 'https://example.com/a b.git' })).rejects.toMatchObject({ code: 'invalid_request' });
    expect(count('harness_remote_projects')).toBe(0);
  });
});

describe('get_gateway_runtime_health', () => {
  test('an inactive gateway is reported inactive, with no probe; the outbox is counted by state', async () => {
    await fx.call(pushToHuman, { taskId: fx.newTask(), message: 'queued' });
    routingStores(fx.services).gateways.add({ name: 'off', kind: 'openclaw', url: 'ws://127.0.0.1:9', token: 'tok-0123456789', active: false } as never);
    const health = await fx.call(getGatewayRuntimeHealth, {});
    expect(health.gateways.find((g: { name: string }) => g.name === 'off')).toMatchObject({ state: 'inactive', detail: 'inactive' });
    expect(JSON.stringify(health)).toContain('"PENDING":1');
  });
});
