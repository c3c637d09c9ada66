// A project's Workbench that is not running is started by its events under a real `svc serve`:
// with the project's default connection set (`svc project defaults`), an owner's gateway message
// starts the Workbench's CLI in a real PTY and its first review batch is typed into it; without a
// default connection the events wait and nothing starts.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSvcSandbox, REPO_ROOT, type SvcSandbox } from '../../../test/support/svc-process.js';
import { QWEN_STAND_IN, prepareQwenDemoProject, svcOk } from '../../../test/support/qwen-demo-project.js';
import { until } from '../../../test/support/until.js';
import { startServe, type ServeProcess } from '../../../test/support/svc-serve.js';

const HERMES = join(REPO_ROOT, 'test/fake-clis/hermes/hermes');
let svc: SvcSandbox;
let server: ServeProcess | undefined;

const ok = (args: string[]) => svcOk(svc, args);

beforeAll(async () => {
  svc = createSvcSandbox([QWEN_STAND_IN]);
  await prepareQwenDemoProject(svc);
  await ok(['gateway', 'add', 'herm', '--kind', 'hermes', '--command', HERMES]);
  await ok(['channel', 'add', 'tg', '--gateway', 'herm', '--platform', 'telegram', '--to', '4242', '--owner', '4242', '--project', 'demo']);
  // The Qwen stand-in draws a prompt but no bracketed paste, so a reply finds no prompt to wait for:
  // a short terminals.promptWaitMs types it once the output is quiet, as an operator of such a CLI would.
  server = await startServe(svc, { SVC_WORKBENCH_POLL_MS: '200', SVC_WORKBENCH_BATCH_WINDOW_MS: '500', SVC_WORKBENCH_AUTOSTART_INTERVAL_MS: '300', SVC_TERMINAL_PROMPT_WAIT_MS: '500' });
}, 120_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  svc.cleanup();
});

test("an owner's message starts the project's Workbench through the default connection and its batch is typed into it; without a default nothing starts", async () => {
  const say = (id: string, text: string) => server!.api('POST', '/api/internal/harness/gateway', { platform: 'telegram', chatId: '4242', senderId: '4242', platformMessageId: id, text });
  const first = await say('tg-1', 'is the parser done?');
  expect(first.body).toMatchObject({ status: 'routed', event: 'GATEWAY_DISCUSSION_REQUEST' });
  const workbench = first.body.workbenchTaskId as number;
  // No default connection: the event waits, nothing is started.
  await new Promise((r) => setTimeout(r, 1500));
  expect(JSON.parse(await ok(['execution', 'list', '--task', String(workbench), '--json']))).toEqual([]);

  expect(JSON.parse(await ok(['project', 'defaults', 'demo', '--connection', 'qwen', '--json']))).toMatchObject({ connection: 'qwen' });
  const second = await say('tg-2', 'and the exporter?');
  expect(second.body).toMatchObject({ status: 'routed', workbenchTaskId: workbench });
  // Started by the service, its first batch (both waiting events) typed at its prompt.
  const screen = await until(async () => {
    const read = await server!.api('GET', `/api/internal/terminal/${workbench}/buffer?cursor=0`);
    const data = read.status === 200 ? (read.body.data as string) : '';
    return data.includes('GATEWAY_DISCUSSION_REQUEST') && data.includes('You said:') ? data : undefined;
  }, 30_000, "the Workbench's first review batch in its terminal");
  expect(screen).toContain('is the parser done?');
  expect(screen).toContain('and the exporter?');
  const executions = JSON.parse(await ok(['execution', 'list', '--task', String(workbench), '--json'])) as Array<{ status: string; connectionName: string }>;
  expect(executions).toEqual([expect.objectContaining({ status: 'RUNNING', connectionName: 'qwen' })]);
  // One batch with both events; the Workbench acknowledges it as it would from its own svc mcp.
  const batchId = Number(/\[svc review batch (\d+)/.exec(screen)![1]);
  expect((await server!.api('POST', '/api/internal/harness/workbench/ack', { batchId })).body).toMatchObject({ batchId, state: 'ACKED', events: 2 });
}, 90_000);

test('a Workbench a person stopped is not started again for the events already waiting; a newer event starts it', async () => {
  const say = (id: string, text: string) => server!.api('POST', '/api/internal/harness/gateway', { platform: 'telegram', chatId: '4242', senderId: '4242', platformMessageId: id, text });
  type Execution = { id: number; status: string };
  const executionsOf = async (taskId: number) => JSON.parse(await ok(['execution', 'list', '--task', String(taskId), '--json'])) as Execution[];
  // The stand-in reports no turn end, so after its first batch a new event waits while it runs.
  const third = await say('tg-3', 'one more: the docs?');
  const workbench = third.body.workbenchTaskId as number;
  const [running] = await executionsOf(workbench);
  expect(running).toMatchObject({ status: 'RUNNING' });
  await ok(['task', 'stop', String(workbench)]);
  await until(async () => ((await executionsOf(workbench)).every((e) => e.status !== 'RUNNING') ? true : undefined), 15_000, 'the Workbench run to end');

  // Many polls and start intervals later: still stopped, its event still waiting.
  await new Promise((r) => setTimeout(r, 2000));
  expect((await executionsOf(workbench)).map((e) => e.id)).toEqual([running!.id]);

  await say('tg-4', 'and the changelog?');
  const screen = await until(async () => {
    const runs = await executionsOf(workbench);
    if (runs.length !== 2 || !runs.some((e) => e.status === 'RUNNING')) return undefined;
    const read = await server!.api('GET', `/api/internal/terminal/${workbench}/buffer?cursor=0`);
    const data = read.status === 200 ? (read.body.data as string) : '';
    return data.includes('and the changelog?') ? data : undefined;
  }, 30_000, 'the Workbench started again with its batch');
  // One batch: the event that waited and the newer one.
  expect(screen).toContain('one more: the docs?');
}, 90_000);
