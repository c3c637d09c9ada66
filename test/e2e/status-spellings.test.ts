// A status is spelled the same way on every face: `in-progress`, `in_review` or `Done` name the
// canonical status through the CLI, the HTTP API and an MCP client alike, because the operations'
// input schemas read the spelling, not one adapter.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { connectSvcMcpHttp } from '../support/svc-mcp-http-client.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { apiOk, startServe, type ServeProcess } from '../support/svc-serve.js';
import { svcOk } from '../support/qwen-demo-project.js';

let svc: SvcSandbox;
let serve: ServeProcess;

/** A task to move, made through the HTTP API: its creation is not what these tests check. */
async function newTask(title: string): Promise<number> {
  return (await apiOk(serve, 'POST', '/api/tasks', { title, projectId: 'demo' })).id;
}

beforeAll(async () => {
  svc = createSvcSandbox();
  const repo = join(svc.home, 'repo');
  mkdirSync(repo);
  serve = await startServe(svc);
  await apiOk(serve, 'POST', '/api/workspaces', { name: 'main' });
  await apiOk(serve, 'POST', '/api/projects', { name: 'demo', workspaceId: 'main', repoPath: repo });
}, 120_000);
afterAll(async () => {
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  svc?.cleanup();
});

test('the CLI takes a status in any case, with - or _', async () => {
  const id = await newTask('through the CLI');
  expect(JSON.parse(await svcOk(svc, ['task', 'move', String(id), 'in-progress', '--json'])).status).toBe('IN_PROGRESS');
  expect(JSON.parse(await svcOk(svc, ['task', 'update', String(id), '--status', 'In_Review', '--json'])).status).toBe('IN_REVIEW');
  const listed = JSON.parse(await svcOk(svc, ['task', 'list', '--project', 'demo', '--status', 'in-review', '--json'])) as { id: number }[];
  expect(listed.map((task) => task.id)).toEqual([id]);
  expect(JSON.parse(await svcOk(svc, ['execution', 'list', '--status', 'completed', '--json']))).toEqual([]);
}, 60_000);

test('the HTTP API takes the same spellings', async () => {
  const created = await serve.api('POST', '/api/tasks', { projectId: 'demo', title: 'through HTTP', status: 'in-progress' });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.status).toBe('IN_PROGRESS');
  const moved = await serve.api('POST', `/api/tasks/${created.body.id}/move`, { status: 'in-review' });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  expect(moved.body.status).toBe('IN_REVIEW');
  const listed = await serve.api('GET', `/api/tasks?projectId=demo&status=in_review`);
  expect(listed.status, JSON.stringify(listed.body)).toBe(200);
  expect(listed.body.items.map((task: { id: number }) => task.id)).toContain(created.body.id);
  const executions = await serve.api('GET', '/api/executions?status=failed');
  expect(executions.status, JSON.stringify(executions.body)).toBe(200);
  expect(executions.body.items).toEqual([]);
}, 60_000);

test('an MCP client takes the same spellings', async () => {
  const id = await newTask('through MCP');
  const secret = (await svcOk(svc, ['mcp', 'token', 'create', 'spellings', '--profile', 'full'])).trim();
  const mcp = await connectSvcMcpHttp(serve.url, secret);
  try {
    expect((await mcp.call('move_task', { id, status: 'in-progress' })).status).toBe('IN_PROGRESS');
    expect((await mcp.call('update_task', { id, status: 'Done' })).status).toBe('DONE');
    const listed = await mcp.call('list_tasks', { projectId: 'demo', status: 'done' });
    expect(listed.items.map((task: { id: number }) => task.id)).toEqual([id]);
  } finally {
    await mcp.close();
  }
}, 60_000);

test('a status no spelling names is still refused with a coded error', async () => {
  const id = await newTask('refused');
  const refused = await serve.api('POST', `/api/tasks/${id}/move`, { status: 'in-flight' });
  expect(refused.status).toBe(400);
  expect(refused.body.error.code).toBe('invalid_request');
  const cli = await svc.run(['task', 'move', String(id), 'in-flight']);
  expect(cli.code).not.toBe(0);
  expect(cli.stderr).toContain('invalid_request');
}, 60_000);
