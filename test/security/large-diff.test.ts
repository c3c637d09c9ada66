// An agent's worktree with large generated text files (a data set, a log): the review diff reads git's
// output only up to its 2 MB cut and stops git there, so `GET /api/tasks/:id/diff` and MCP
// `get_task_diff` answer a cut diff and `svc serve` lives on. The files are sparse: text first (so git
// treats them as text), then zeros, about 600 MB of diff in all, which is past the longest string
// Node can hold.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openHostServices, type HostServices } from '@svc-org/host/host-services';
import { McpTokenStore } from '@svc-org/harness/mcp/tokens/mcp-token-store';
import { git, makeRepo } from '../support/git-repo.js';
import { connectSvcMcpHttp } from '../support/svc-mcp-http-client.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { apiOk, startServe, type ServeProcess } from '../support/svc-serve.js';
import { harnessPlugin } from '@svc-org/harness';

const FILES = 20;
const FILE_BYTES = 30 * 1024 * 1024;
const MAX_PATCH_BYTES = 2 * 1024 * 1024;

let svc: SvcSandbox;
let server: ServeProcess | undefined;
let outside: string;
let local: HostServices | undefined;

beforeAll(async () => {
  svc = createSvcSandbox();
  outside = mkdtempSync(join(tmpdir(), 'svc-large-diff-'));
  const files: Record<string, string> = { 'README.md': '# demo\n' };
  for (let i = 1; i <= FILES; i++) files[`data/part-${i}.txt`] = 'header\n';
  const repo = makeRepo(join(outside, 'repo'), files);
  git(repo, 'config', 'user.name', 'Project Owner');
  git(repo, 'config', 'user.email', 'owner@example.test');
  server = await startServe(svc, { SVC_WORKTREE_CHECK_INTERVAL_MS: '3600000' });
  await apiOk(server, 'POST', '/api/workspaces', { name: 'main' });
  await apiOk(server, 'POST', '/api/projects', { name: 'demo', workspaceId: 'main', repoPath: repo });
  local = await openHostServices({ env: { ...svc.env, SVC_LOG_LEVEL: 'error' }, extensions: false, plugins: [harnessPlugin] });
}, 120_000);

afterAll(async () => {
  await local?.close();
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  svc?.cleanup();
  if (outside) rmSync(outside, { recursive: true, force: true });
});

/** Text for git's look at the first 8000 bytes, then zeros up to `bytes`, without writing them. */
function largeTextFile(path: string, bytes: number): void {
  writeFileSync(path, 'generated row\n'.repeat(700));
  truncateSync(path, bytes);
}

test('a task diff of very large files is cut at 2 MB over HTTP and MCP, and the service lives on', async () => {
  const taskId = (await apiOk(server!, 'POST', '/api/tasks', { title: 'generate data', projectId: 'demo' })).id as number;
  const worktree = (await apiOk(server!, 'POST', `/api/tasks/${taskId}/worktree`, {})).worktree.worktreePath as string;
  for (let i = 1; i <= FILES; i++) largeTextFile(join(worktree, 'data', `part-${i}.txt`), FILE_BYTES);
  largeTextFile(join(worktree, 'data', 'extra.log'), FILE_BYTES);

  const viaHttp = await server!.api('GET', `/api/tasks/${taskId}/diff`);
  expect(viaHttp.status).toBe(200);
  expect(viaHttp.body.truncated).toBe(true);
  expect(Buffer.byteLength(viaHttp.body.patch)).toBeLessThanOrEqual(MAX_PATCH_BYTES);
  expect(viaHttp.body.patch.startsWith('diff --git a/data/part-1.txt')).toBe(true);
  expect(viaHttp.body.files).toHaveLength(FILES + 1);

  const token = new McpTokenStore(local!.db).create({ name: 'reviewer', profile: 'full' }).token;
  const mcp = await connectSvcMcpHttp(server!.url, token);
  try {
    const viaMcp = await mcp.call('get_task_diff', { taskId });
    expect(viaMcp.truncated).toBe(true);
    expect(viaMcp.files).toHaveLength(FILES + 1);
  } finally {
    await mcp.close();
  }

  expect(server!.child.exitCode).toBeNull();
  expect((await server!.api('GET', `/api/tasks/${taskId}`)).status).toBe(200);
}, 120_000);
