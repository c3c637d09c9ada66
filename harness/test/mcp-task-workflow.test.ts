// The seed's typical external workflow, driven entirely over MCP against a real `svc serve`:
// create a task, start its execution, poll terminal output with a cursor, send input, check completion.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { connectSvcMcp, type SvcMcp } from '../../test/support/svc-mcp-client.js';
import { createSvcSandbox, REPO_ROOT, type SvcSandbox } from '../../test/support/svc-process.js';
import { startServe, type ServeProcess } from '../../test/support/svc-serve.js';

const QWEN_PROVIDER = join(REPO_ROOT, 'extensions/cli-providers/qwen-code');
const QWEN_STAND_IN = join(REPO_ROOT, 'test/fake-clis/qwen');

let svc: SvcSandbox;
let serve: ServeProcess | undefined;
let mcp: SvcMcp;

async function ok(args: string[]): Promise<void> {
  const result = await svc.run(args, { timeoutMs: 60_000 });
  if (result.code !== 0) throw new Error(`svc ${args.join(' ')} failed (${result.code})\n${result.stdout}\n${result.stderr}`);
}

beforeAll(async () => {
  svc = createSvcSandbox([QWEN_STAND_IN]);
  mkdirSync(join(svc.home, 'repo'));
  await ok(['ext', 'dev', 'add', QWEN_PROVIDER]);
  await ok(['ext', 'enable', 'svc-community.qwen-code', '--yes']);
  await ok(['connection', 'add', 'qwen', '--provider', 'svc-community.qwen-code']);
  serve = await startServe(svc);
  mcp = await connectSvcMcp(svc, { SVC_MCP_PROFILE: 'assistant' });
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  if (serve && serve.child.exitCode === null) {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
  svc.cleanup();
});

/** Polls output from `cursor` until `text` shows up; returns everything read and the next cursor. */
async function readUntil(taskId: number, cursor: number, text: string): Promise<{ data: string; cursor: number }> {
  let data = '';
  const deadline = Date.now() + 30_000;
  for (;;) {
    const read = await mcp.call('get_task_terminal_output', { taskId, cursor });
    expect(read.from).toBe(cursor);
    data += read.data;
    cursor = read.cursor;
    if (data.includes(text)) return { data, cursor };
    if (Date.now() > deadline) throw new Error(`"${text}" never appeared; read so far: ${JSON.stringify(data)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('an MCP client creates a task, starts it, polls output with a cursor, answers it and sees it complete', async () => {
  const workspace = await mcp.call('create_workspace', { name: 'main' });
  const project = await mcp.call('create_project', { workspaceId: workspace.id, name: 'demo', repoPath: join(svc.home, 'repo') });
  const task = await mcp.call('create_task', { projectId: project.id, title: 'Say hello' });

  // Without a default and without a connection, starting is refused with what to do.
  expect((await mcp.fail('start_task_execution', { taskId: task.id })).code).toBe('connection_required');
  await mcp.call('set_task_defaults', { projectId: project.id, connection: 'qwen' });
  const execution = await mcp.call('start_task_execution', { taskId: task.id });
  expect(execution).toMatchObject({ taskId: task.id, status: 'RUNNING', mode: 'fresh', connectionName: 'qwen' });

  const banner = await readUntil(task.id, 0, 'qwen> ');
  expect(banner.data).toContain('Qwen Code 0.24.4');

  await mcp.call('send_task_terminal_input', { taskId: task.id, data: 'hello over MCP', submit: true });
  const reply = await readUntil(task.id, banner.cursor, 'You said: hello over MCP');
  // Only what is new since the cursor: the banner is not read twice.
  expect(reply.data).not.toContain('Qwen Code 0.24.4');

  const running = await mcp.call('get_task_terminal_status', { taskId: task.id });
  expect(running.execution).toMatchObject({ id: execution.id, status: 'RUNNING' });

  await mcp.call('send_task_terminal_input', { taskId: task.id, data: '/quit', submit: true });
  const deadline = Date.now() + 30_000;
  let status = running;
  while (status.execution.status === 'RUNNING' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = await mcp.call('get_task_terminal_status', { taskId: task.id });
  }
  expect(status.execution).toMatchObject({ id: execution.id, status: 'COMPLETED', exitCode: 0 });
  expect((await mcp.call('get_execution', { id: execution.id })).status).toBe('COMPLETED');
}, 120_000);

test('terminal tools answer server_not_running once the service is gone, and the database tools still work', async () => {
  serve!.child.kill('SIGTERM');
  await serve!.exited;
  const error = await mcp.fail('get_task_terminal_status', { taskId: 1 });
  expect(error.code).toBe('server_not_running');
  expect(error.message).not.toMatch(/Bearer|token/i);
  expect((await mcp.call('list_tasks', {})).items).toHaveLength(1);
}, 60_000);
