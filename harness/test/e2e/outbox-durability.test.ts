// The outbox under a real `svc serve`: a kill -9 in the middle of a send, gateways that fail, time
// out after accepting or answer without an id, and 100 concurrent pushes from two processes.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openHostServices, type HostServices } from '@svc-org/host/host-services';
import { createSvcSandbox, REPO_ROOT, waitFor, type SvcSandbox } from '../../../test/support/svc-process.js';
import { until } from '../../../test/support/until.js';
import { startServe, type ServeProcess } from '../../../test/support/svc-serve.js';
import { pushToHuman } from '../../src/messaging/index.js';
import { startScriptedOpenClawGateway, type ScriptedOpenClawGateway } from '../support/scripted-openclaw-gateway.js';
import { runOperation } from '../support/run-operation.js';
import { harnessPlugin } from '../../src/feature.js';

const HERMES = join(REPO_ROOT, 'test/fake-clis/hermes/hermes');
const TOKEN = 'oc-e2e-token-0123456789abcdef';
let svc: SvcSandbox;
let gateway: ScriptedOpenClawGateway;
const serves: ServeProcess[] = [];
const strays: number[] = [];

async function ok(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const result = await svc.run(args, { timeoutMs: 60_000, env });
  if (result.code !== 0) throw new Error(`svc ${args.join(' ')} failed (${result.code})\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

async function serve(env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const started = await startServe(svc, { SVC_OUTBOX_POLL_MS: '200', ...env });
  serves.push(started);
  return started;
}

const newTask = async (title: string) => Number(/task (\d+) created/.exec(await ok(['task', 'create', title, '--project', 'demo']))![1]);
const show = async (id: number) => JSON.parse(await ok(['harness', 'show', String(id), '--json']));
const hermesLog = () => join(svc.home, 'hermes.log');
const hermesCalls = () => (existsSync(hermesLog()) ? readFileSync(hermesLog(), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);

beforeAll(async () => {
  svc = createSvcSandbox();
  gateway = await startScriptedOpenClawGateway(TOKEN);
  const repo = join(svc.home, 'repo');
  mkdirSync(repo);
  await ok(['workspace', 'create', 'main']);
  await ok(['project', 'create', 'demo', '--workspace', 'main', '--repo', repo]);
  await ok(['gateway', 'add', 'herm', '--kind', 'hermes', '--command', HERMES]);
  await ok(['gateway', 'add', 'claw', '--kind', 'openclaw', '--url', gateway.url, '--token-env', 'OC_TOKEN'], { OC_TOKEN: TOKEN });
  await ok(['channel', 'add', 'tg-hermes', '--gateway', 'herm', '--platform', 'telegram', '--to', '4242', '--owner', '4242']);
  await ok(['channel', 'add', 'tg-claw', '--gateway', 'claw', '--platform', 'telegram', '--to=-100777', '--thread', '5', '--inactive']);
}, 120_000);

afterAll(async () => {
  for (const server of serves) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  for (const pid of strays) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await gateway.close();
  svc.cleanup();
});

describe('outbox durability under a real service', () => {
  test('kill -9 during a send: after the restart the message is SENT_UNVERIFIED and not sent again until a person resends it', async () => {
    const taskId = await newTask('Killed mid-send');
    const first = await serve({ HERMES_FAKE_MODE: 'hang', HERMES_FAKE_LOG: hermesLog() });
    const pushed = await first.api('POST', '/api/internal/harness/push', { taskId, message: 'Build is red, look?' });
    expect(pushed).toMatchObject({ status: 202, body: { status: 'PENDING_DELIVERY', channel: 'tg-hermes', to: '4242' } });
    const call = await waitFor(() => hermesCalls().find((c) => c.message.includes('Build is red')), 20_000, 'hermes to be called');
    strays.push(call.pid);
    expect(call.message).toBe(`Build is red, look?\n\n[[svc:task=${taskId}]]`);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await serve({ HERMES_FAKE_MODE: 'ok', HERMES_FAKE_LOG: hermesLog(), HERMES_FAKE_COUNTER: join(svc.home, 'counter') });
    await until(async () => (await show(pushed.body.messageId)).status === 'SENT_UNVERIFIED', 20_000, 'recovery');
    expect(await show(pushed.body.messageId)).toMatchObject({ deliveryStatus: 'SENT_UNVERIFIED', outbound: { lastError: { code: 'sender_lost' } }, actions: ['view', 'resend'] });
    await new Promise((r) => setTimeout(r, 1000));
    expect(hermesCalls().filter((c) => c.message.includes('Build is red'))).toHaveLength(1);

    expect(await ok(['harness', 'resend', String(pushed.body.messageId)])).toContain('queued again');
    await until(async () => (await show(pushed.body.messageId)).deliveryStatus === 'SENT', 20_000, 'the resend');
    expect(hermesCalls().filter((c) => c.message.includes('Build is red')).map((c) => c.outcome)).toEqual(['hang', 'sent']);
    expect((await show(pushed.body.messageId)).delivery).toMatchObject({ platform: 'telegram', platformMessageId: '101' });
    second.child.kill('SIGTERM');
    await second.exited;
  }, 180_000);

  test('a failing gateway, one that accepts and goes silent, and one that answers without an id each end in their state', async () => {
    await ok(['channel', 'disable', 'tg-hermes']);
    await ok(['channel', 'enable', 'tg-claw']);
    const server = await serve({ SVC_GATEWAY_TIMEOUT_MS: '1500' });
    gateway.script = (r) => (r.message.startsWith('fails') ? 'unavailable' : r.message.startsWith('silent') ? 'hang' : r.message.startsWith('no id') ? 'no-id' : 'ok');
    const taskId = await newTask('Three gateways');
    const push = async (message: string) => (await server.api('POST', '/api/internal/harness/push', { taskId, message })).body.messageId as number;
    const [fails, silent, noId, fine] = [await push('fails'), await push('silent'), await push('no id'), await push('fine')];
    await until(async () => (await show(fine)).deliveryStatus === 'SENT', 20_000, 'the good one');
    await until(async () => (await show(silent)).deliveryStatus === 'SENT_UNVERIFIED', 20_000, 'the silent one');
    expect(await show(fails)).toMatchObject({ deliveryStatus: 'PENDING_DELIVERY', outbound: { state: 'PENDING', lastError: { code: 'gateway_unavailable' } } });
    expect(await show(silent)).toMatchObject({ deliveryStatus: 'SENT_UNVERIFIED', outbound: { lastError: { code: 'gateway_timeout' } } });
    expect(await show(noId)).toMatchObject({ deliveryStatus: 'SENT_UNVERIFIED', outbound: { lastError: { code: 'no_message_id' } } });
    const sentOnce = (id: number) => async () => {
      const key = (await show(id)).outbound.id;
      return gateway.requests.filter((r) => r.idempotencyKey === key).length;
    };
    await new Promise((r) => setTimeout(r, 2500));
    expect(await sentOnce(silent)()).toBe(1);
    expect(await sentOnce(noId)()).toBe(1);
    expect(await sentOnce(fails)()).toBeGreaterThanOrEqual(2);
    expect((await show(fails)).deliveryStatus).toBe('PENDING_DELIVERY');
    // The token never leaves the service: not in listings, not in the log.
    expect(await ok(['gateway', 'show', 'claw', '--json'])).not.toContain(TOKEN);
    expect((await server.api('GET', '/api/harness/gateways')).body.items[1]).toMatchObject({ name: 'claw', tokenSet: true });
    expect(JSON.stringify((await server.api('GET', '/api/harness/gateways')).body)).not.toContain(TOKEN);
    server.child.kill('SIGTERM');
    await server.exited;
    expect(readFileSync(join(svc.home, 'logs', 'svc.log'), 'utf8')).not.toContain(TOKEN);
  }, 180_000);

  test('100 concurrent push_to_human from two processes, sent by two processes, reach the gateway exactly 100 times', async () => {
    gateway.script = () => 'ok';
    await ok(['channel', 'disable', 'tg-hermes']);
    await ok(['channel', 'enable', 'tg-claw']);
    const taskId = await newTask('Chatty');
    const server = await serve({});
    const before = gateway.requests.length;
    // Process two: this test process, on the same database file.
    const local: HostServices = await openHostServices({ env: { ...svc.env, SVC_LOG_LEVEL: 'error' }, builtins: false, plugins: [harnessPlugin] });
    try {
      const ctx = { services: local, caller: { via: 'internal' as const, taskId }, signal: new AbortController().signal };
      const overHttp = Array.from({ length: 50 }, (_, i) => server.api('POST', '/api/internal/harness/push', { taskId, message: `http ${i}` }));
      const inProcess = Array.from({ length: 50 }, async (_, i) => {
        await new Promise((r) => setTimeout(r, i % 10));
        return runOperation(pushToHuman, { message: `local ${i}` }, ctx);
      });
      // A second sender beside the service's timer, claiming from the same table.
      const drains = Array.from({ length: 3 }, () => ok(['harness', 'drain']));
      const answers = await Promise.all(overHttp);
      expect(answers.every((a) => a.status === 202)).toBe(true);
      await Promise.all([...inProcess, ...drains]);
      const sentForTask = () => gateway.requests.slice(before).filter((r) => r.message.endsWith(`[[svc:task=${taskId}]]`)).length;
      await waitFor(() => sentForTask() >= 100 || undefined, 60_000, '100 sends');
      await new Promise((r) => setTimeout(r, 1000));
      // Only this task's messages: an entry an earlier test left failing is still retried meanwhile.
      const mine = gateway.requests.slice(before).filter((r) => r.message.endsWith(`[[svc:task=${taskId}]]`));
      expect(mine).toHaveLength(100);
      expect(new Set(mine.map((r) => r.idempotencyKey)).size).toBe(100);
      expect(new Set(mine.map((r) => r.message.split('\n')[0])).size).toBe(100);
      const statuses = local.db.prepare('SELECT status, COUNT(*) AS n FROM harness_messages WHERE task_id = ? GROUP BY status').all(taskId);
      expect(statuses).toEqual([{ status: 'SENT', n: 100 }]);
      // The notification center over HTTP: filtered by task and status, paged.
      const first = await server.api('GET', `/api/harness/messages?taskId=${taskId}&status=SENT&limit=60`);
      expect(first.status).toBe(200);
      expect(first.body.items).toHaveLength(60);
      expect(first.body.items[0]).toMatchObject({ ownership: { taskId }, status: 'SENT', deliveryStatus: 'SENT', actions: ['view'] });
      const second = await server.api('GET', `/api/harness/messages?taskId=${taskId}&status=SENT&limit=60&before=${first.body.nextBefore}`);
      expect(second.body.items).toHaveLength(40);
      expect(second.body.nextBefore).toBeNull();
      expect(new Set([...first.body.items, ...second.body.items].map((m: { id: number }) => m.id)).size).toBe(100);
      expect((await server.api('GET', `/api/harness/messages?taskId=${taskId}&status=OPEN`)).body.items).toEqual([]);
      expect((await server.api('GET', '/api/harness/messages?status=BOGUS')).status).toBe(400);
    } finally {
      await local.close();
    }
    server.child.kill('SIGTERM');
    await server.exited;
  }, 180_000);
});
