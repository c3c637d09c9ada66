// A real `svc serve` is stopped while a task's start waits in its worktree's set-up command; the
// shutdown waits for that start, so the start is never left half done. With --stop-terminals it then
// stops the CLI it started and records it; plain `svc serve` leaves that terminal running in the
// terminal holder, its execution recorded as running, for the next service.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { copyFixtureProvider } from '../support/copy-fixture-provider.js';
import { enableOverHttp } from '../support/enable-over-http.js';
import { makeRepo } from '../support/git-repo.js';
import { createSvcSandbox, waitFor, type SvcSandbox } from '../support/svc-process.js';
import { apiOk, isRunning, startServe, type ServeProcess } from '../support/svc-serve.js';

const sandboxes: SvcSandbox[] = [];
const servers: ServeProcess[] = [];
const scratches: string[] = [];

afterAll(async () => {
  for (const server of servers) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  }
  // Its SVC_HOME gone, the terminal holder ends whatever it still holds and exits.
  for (const svc of sandboxes) svc.cleanup();
  for (const scratch of scratches) rmSync(scratch, { recursive: true, force: true });
});

/**
 * `svc serve [args]` with a task whose start is under way, waiting in its worktree's set-up command;
 * the service is sent SIGTERM, and the start is let go on once the service says it is stopping.
 */
async function stopWhileStarting(args: string[]) {
  const svc = createSvcSandbox();
  sandboxes.push(svc);
  const outside = mkdtempSync(join(tmpdir(), 'svc-stop-starting-'));
  scratches.push(outside);
  const server = await startServe(svc, { SVC_TERMINAL_STOP_GRACE_MS: '2000', SVC_TERMINAL_INTERRUPT_MS: '300', SVC_WORKTREE_CHECK_INTERVAL_MS: '3600000' }, args);
  servers.push(server);
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
  await waitFor(() => server.child.output.stdout.includes('stopping:'), 30_000, 'svc serve to begin stopping');
  writeFileSync(go, '');
  const exit = await server.exited;
  expect(exit.code, server.child.output.stderr).toBe(0);
  expect(server.child.output.stdout).toContain('stopped\n');
  const started = await start;
  expect.soft(started.status, JSON.stringify(started.body) + server.child.output.stderr).toBe(201);

  // What the service recorded, read by the CLI with no service running.
  const shown = await svc.run(['task', 'show', String(taskId), '--json']);
  expect(shown.code, shown.stderr).toBe(0);
  const [execution] = JSON.parse(shown.stdout).executions as Array<{ status: string; endReason: string | null; pid: number | null }>;
  return { server, execution };
}

test('svc serve --stop-terminals waits for a terminal still starting and stops it, recorded as ended by the shutdown', async () => {
  const { server, execution } = await stopWhileStarting(['--stop-terminals']);
  expect(server.child.output.stdout).toContain('stopping: ending every terminal\n');
  expect(execution).toMatchObject({ status: 'COMPLETED', endReason: 'service_shutdown' });
  expect(execution!.pid).toBeGreaterThan(0);
  expect(isRunning(execution!.pid!)).toBe(false);
}, 120_000);

test('plain svc serve waits for a terminal still starting, which then runs on in the terminal holder, recorded as running', async () => {
  const { server, execution } = await stopWhileStarting([]);
  expect(server.child.output.stdout).toContain('stopping: the task terminals keep running in the terminal holder\n');
  expect(execution).toMatchObject({ status: 'RUNNING', endReason: null });
  expect(execution!.pid).toBeGreaterThan(0);
  expect(isRunning(execution!.pid!)).toBe(true);
}, 120_000);
