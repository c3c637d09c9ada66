// Inbound routing and the Workbench under a real `svc serve`: one platform message delivered 100
// times from two processes, and a parent's review batch surviving a kill -9 of the service.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openHostServices, type HostServices } from '@svc-org/host/host-services';
import { createSvcSandbox, REPO_ROOT, type SvcSandbox } from '../../../test/support/svc-process.js';
import { QWEN_STAND_IN, prepareQwenDemoProject, svcOk } from '../../../test/support/qwen-demo-project.js';
import { until } from '../../../test/support/until.js';
import { startServe, type ServeProcess } from '../../../test/support/svc-serve.js';
import { routeGatewayMessage } from '../../src/routing/index.js';
import { runOperation } from '../support/run-operation.js';
import { harnessPlugin } from '../../src/feature.js';

const HERMES = join(REPO_ROOT, 'test/fake-clis/hermes/hermes');
let svc: SvcSandbox;
const serves: ServeProcess[] = [];

const ok = (args: string[]) => svcOk(svc, args);

// The Qwen stand-in draws a prompt but no bracketed paste, so a reply finds no prompt to wait for:
// a short terminals.promptWaitMs types it once the output is quiet, as an operator of such a CLI would.
async function serve(): Promise<ServeProcess> {
  const started = await startServe(svc, { SVC_WORKBENCH_POLL_MS: '200', SVC_WORKBENCH_BATCH_WINDOW_MS: '1500', SVC_TERMINAL_STOP_GRACE_MS: '2000', SVC_TERMINAL_PROMPT_WAIT_MS: '500' });
  serves.push(started);
  return started;
}

const newTask = async (title: string, parent?: number) =>
  Number(/task (\d+) created/.exec(await ok(['task', 'create', title, '--project', 'demo', ...(parent ? ['--parent', String(parent)] : [])]))![1]);

beforeAll(async () => {
  svc = createSvcSandbox([QWEN_STAND_IN]);
  await prepareQwenDemoProject(svc);
  await ok(['gateway', 'add', 'herm', '--kind', 'hermes', '--command', HERMES]);
  await ok(['channel', 'add', 'tg', '--gateway', 'herm', '--platform', 'telegram', '--to', '4242', '--owner', '4242']);
}, 120_000);

afterAll(() => {
  for (const server of serves) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  svc.cleanup();
});

describe('gateway routing and the Workbench under a real service', () => {
  test('100 concurrent deliveries of one platform message from two processes: one routed, the rest noOp', async () => {
    const server = await serve();
    const local: HostServices = await openHostServices({ env: { ...svc.env, SVC_LOG_LEVEL: 'error' }, builtins: false, plugins: [harnessPlugin] });
    try {
      const message = { platform: 'telegram', chatId: '4242', senderId: '4242', platformMessageId: 'tg-100', text: 'what is the state of demo?' };
      const ctx = { services: local, caller: { via: 'internal' as const }, signal: new AbortController().signal };
      const overHttp = Array.from({ length: 50 }, async () => {
        const answer = await server.api('POST', '/api/internal/harness/gateway', message);
        expect(answer.status).toBe(200);
        return answer.body;
      });
      const inProcess = Array.from({ length: 50 }, async (_, i) => {
        await new Promise((r) => setTimeout(r, i % 7));
        return runOperation(routeGatewayMessage, message, ctx) as Promise<{ status: string; noOp?: boolean; inboundId: number }>;
      });
      const answers = await Promise.all([...overHttp, ...inProcess]);
      const routed = answers.filter((a) => a.status === 'routed');
      expect(routed).toHaveLength(1);
      const others = answers.filter((a) => a.status !== 'routed');
      expect(others).toHaveLength(99);
      for (const other of others) {
        expect(['in_progress', 'already_processed']).toContain(other.status);
        expect(other.noOp).toBe(true);
        expect(other.inboundId).toBe(routed[0]!.inboundId);
      }
      expect(local.db.prepare('SELECT state, COUNT(*) AS n FROM harness_gateway_inbound GROUP BY state').all()).toEqual([{ state: 'PROCESSED', n: 1 }]);
      expect(local.db.prepare('SELECT kind, COUNT(*) AS n FROM harness_workbench_events GROUP BY kind').all()).toEqual([{ kind: 'GATEWAY_DISCUSSION_REQUEST', n: 1 }]);
      expect((local.db.prepare("SELECT COUNT(*) AS n FROM tasks WHERE title = 'Workbench'").get() as { n: number }).n).toBe(1);
    } finally {
      await local.close();
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 180_000);

  test('two children\'s stop hooks, a FAILED execution and a kill -9 end as exactly one review batch in the parent\'s PTY, taken back after the restart', async () => {
    const parent = await newTask('Lead');
    const first = await newTask('Child one', parent);
    const second = await newTask('Child two', parent);
    let server = await serve();
    await ok(['task', 'start', String(parent), '--connection', 'qwen']);
    await until(async () => (await server.api('GET', `/api/internal/terminal/${parent}/buffer?cursor=0`)).body.data?.includes('qwen> '), 30_000, 'the parent prompt');

    // The children end their turns (their Stop hooks); one of them has a FAILED execution.
    expect((await server.api('POST', '/api/internal/hooks/stop', { taskId: first, event: { turn_id: 'a1', last_assistant_message: 'first child finished the parser' } })).status).toBe(202);
    expect((await server.api('POST', '/api/internal/hooks/stop', { taskId: second, event: { turn_id: 'b1', last_assistant_message: 'second child is blocked: which port?' } })).status).toBe(202);
    const local: HostServices = await openHostServices({ env: { ...svc.env, SVC_LOG_LEVEL: 'error' }, builtins: false, plugins: [harnessPlugin] });
    try {
      const failed = local.domain.executions.create({ taskId: second, connectionId: null, connectionName: 'qwen', providerId: 'svc-community.qwen-code', mode: 'fresh', sessionId: null });
      local.domain.executions.finish(failed.id, { status: 'FAILED', endReason: 'exited', exitCode: 1, error: { code: 'cli_exited', message: 'exit 1' } });

      // The parent's own turn ends, and the service dies inside the batching window.
      expect((await server.api('POST', '/api/internal/hooks/stop', { taskId: parent, event: { turn_id: 'p1' } })).status).toBe(202);
      server.child.kill('SIGKILL');
      await server.exited;
      const events = () => local.db.prepare('SELECT kind, state FROM harness_workbench_events WHERE parent_task_id = ? ORDER BY id').all(parent) as { kind: string; state: string }[];

      server = await serve();
      // A repeated stop hook of the same turn (e.g. Codex's notifier) adds nothing.
      await server.api('POST', '/api/internal/hooks/stop', { taskId: first, event: { turn_id: 'a1', last_assistant_message: 'first child finished the parser' } });
      // Every durable domain event was consumed by the restarted service (none left pending or claimed).
      const unhandled = () => (local.db.prepare("SELECT COUNT(*) AS n FROM domain_events WHERE status IN ('pending', 'processing')").get() as { n: number }).n;
      await until(() => events().length === 3 && unhandled() === 0, 20_000, 'three events');
      // The parent's run outlived the service in the terminal holder, its turn ended before the kill:
      // the restarted service takes it back and delivers the batch it died inside the window of, once.
      const shown = await until(async () => {
        const read = await server.api('GET', `/api/internal/terminal/${parent}/buffer?cursor=0`);
        return read.body.data?.includes('second child is blocked') ? read.body.data as string : undefined;
      }, 30_000, 'the review batch in the parent terminal');
      await new Promise((r) => setTimeout(r, 3000));
      const after = (await server.api('GET', `/api/internal/terminal/${parent}/buffer?cursor=0`)).body.data as string;
      // The stand-in answers each submitted message with "You said:": the batch arrived once, as one paste.
      expect(after.split('You said: \x1b[200~[svc review batch').length - 1).toBe(1);
      expect(after).not.toContain('review batch 2');
      expect(shown).toContain('first child finished the parser');
      expect(shown).toContain('EXECUTION_FAILED');
      const batches = local.db.prepare('SELECT id, state FROM harness_workbench_batches WHERE parent_task_id = ?').all(parent) as { id: number; state: string }[];
      expect(batches).toEqual([{ id: batches[0]!.id, state: 'DELIVERED' }]);
      expect(events()).toEqual([
        { kind: 'CHILD_TURN_ENDED', state: 'BATCHED' },
        { kind: 'CHILD_TURN_ENDED', state: 'BATCHED' },
        { kind: 'EXECUTION_FAILED', state: 'BATCHED' },
      ]);
      expect((local.db.prepare("SELECT COUNT(*) AS n FROM harness_task_messages WHERE task_id = ? AND role = 'SYSTEM'").get(parent) as { n: number }).n).toBe(1);
      // The parent reads and handles it.
      expect((await server.api('POST', '/api/internal/harness/workbench/ack', { batchId: batches[0]!.id })).body).toMatchObject({ state: 'ACKED', events: 3 });
      expect((await server.api('POST', '/api/internal/harness/workbench/resolve', { batchId: batches[0]!.id, note: 'port 8080' })).body).toMatchObject({ state: 'RESOLVED' });
    } finally {
      await local.close();
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
    }
  }, 240_000);

  test('continue_bound_task types an owner\'s continue into the live task once; a repeat is noOp and a stranger is refused', async () => {
    const taskId = await newTask('Keep going');
    const server = await serve();
    try {
      await ok(['task', 'start', String(taskId), '--connection', 'qwen']);
      const start = await until(async () => {
        const read = await server.api('GET', `/api/internal/terminal/${taskId}/buffer?cursor=0`);
        return read.body.data?.includes('qwen> ') ? read.body : undefined;
      }, 30_000, 'the prompt');
      const message = { platform: 'telegram', chatId: '4242', senderId: '4242', platformMessageId: 'cont-1', text: `please continue [[svc:task=${taskId}]]` };
      const stranger = await server.api('PUT', '/api/internal/harness/gateway-task', { ...message, senderId: '999' });
      expect(stranger).toMatchObject({ status: 403, body: { error: { code: 'owner_required' } } });
      const first = await server.api('PUT', '/api/internal/harness/gateway-task', message);
      expect(first.body).toMatchObject({ status: 'injected', taskId });
      const again = await server.api('PUT', '/api/internal/harness/gateway-task', message);
      expect(again.body).toMatchObject({ status: 'already_processed', inboundId: first.body.inboundId, noOp: true });
      const shown = await until(async () => {
        const read = await server.api('GET', `/api/internal/terminal/${taskId}/buffer?cursor=${start.cursor}`);
        return read.body.data?.includes('You said: please continue') ? (read.body.data as string) : undefined;
      }, 20_000, 'the continue in the terminal');
      await new Promise((r) => setTimeout(r, 1000));
      const after = (await server.api('GET', `/api/internal/terminal/${taskId}/buffer?cursor=${start.cursor}`)).body.data as string;
      expect(shown).toContain('please continue');
      expect(after.split('You said: please continue').length - 1).toBe(1);
    } finally {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  }, 120_000);
});
