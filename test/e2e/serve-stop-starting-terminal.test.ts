// `svc serve --stop-terminals` ends every task terminal when it stops, the one still starting at that
// moment too: a real `svc serve` is stopped while a task's start waits in its worktree's set-up
// command; the shutdown waits for that start, then stops the CLI it started and records it.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { copyFixtureProvider } from '../support/copy-fixture-provider.js';
import { enableOverHttp } from '../support/enable-over-http.js';
import { makeRepo } from '../support/git-repo.js';
import { createSvcSandbox, waitFor, type SvcSandbox } from '../support/svc-process.js';
import { apiOk, isRunning, startServe, type ServeProcess } from '../support/svc-serve.js';

let svc: SvcSandbox;
let server: ServeProcess | undefined;
let outside: string;

beforeAll(() => {
  svc = createSvcSandbox();
  outside = mkdtempSync(join(tmpdir(), 'svc-stop-starting-'));
});

afterAll(async () => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  // Its SVC_HOME gone, the terminal holder ends whatever it still holds and exits.
  svc?.cleanup();
  if (outside) rmSync(outside, { recursive: true, force: true });
});

test('svc serve --stop-terminals waits for a terminal still starting and stops it, recorded as ended by the shutdown', async () => {
  server = await startServe(svc, { SVC_TERMINAL_STOP_GRACE_MS: '2000', SVC_TERMINAL_INTERRUPT_MS: '300', SVC_WORKTREE_CHECK_INTERVAL_MS: '3600000' }, ['--stop-terminals']);
  const repo = makeRepo(join(outside, 'repo'));
  await apiOk(server, 'POST', '/api/extensions/dev', { dir: copyFixtureProvider('echo') });
  await enableOverHttp(server, 'svc-test.echo');
  await apiOk(server, 'POST', '/api/connections', { name: 'echo', providerId: 'svc-test.echo', settings: { apiKey: 'sk-stop-123456' } });
  await apiOk(server, 'POST', '/api/workspaces', { name: 'main' });
  await apiOk(server, 'POST', '/api/projects', { name: 'demo', workspaceId: 'main', repoPath: repo });
  // The task's start waits in its worktree's set-up command until the test lets it go on.
  const began = join(outside, 'set-up-began');
  const go = join(outside, 'set-up-go');
  const setupCommand = `touch '${began}'; i=0; while [ ! -f '${go}' ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done`;
  await apiOk(server, 'PUT', '/api/projects/demo/isolation', { isolation: 'worktree', setupCommand });
  const taskId = (await apiOk(server, 'POST', '/api/tasks', { title: 'slow to start', projectId: 'demo' })).id as number;

  const start = server.api('POST', `/api/internal/terminal/${taskId}/start`, { connection: 'echo' }).catch((error: unknown) => ({ status: 0, body: String(error) }));
  await waitFor(() => existsSync(began), 30_000, 'the set-up command to begin');

  server.child.kill('SIGTERM');
  await waitFor(() => server!.child.output.stdout.includes('stopping: ending every terminal'), 30_000, 'svc serve to begin stopping');
  writeFileSync(go, '');
  const exit = await server.exited;
  expect(exit.code, server.child.output.stderr).toBe(0);
  expect(server.child.output.stdout).toContain('stopped\n');
  expect.soft((await start).status).toBe(201);

  // What the service recorded, read by the CLI with no service running.
  const shown = await svc.run(['task', 'show', String(taskId), '--json']);
  expect(shown.code, shown.stderr).toBe(0);
  const [execution] = JSON.parse(shown.stdout).executions as Array<{ status: string; endReason: string | null; pid: number | null }>;
  expect(execution).toMatchObject({ status: 'COMPLETED', endReason: 'service_shutdown' });
  expect(execution!.pid).toBeGreaterThan(0);
  expect(isRunning(execution!.pid!)).toBe(false);
}, 120_000);
