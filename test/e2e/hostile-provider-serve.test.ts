// `svc serve` under a loop of every hostile input a provider can send over its message channel,
// from a hardened (`--isolation process`) and a worker provider, while another provider's task
// terminal runs: each hostile start fails coded and counts as the provider's crash; the service
// stays up, the other terminal's output keeps flowing and nothing is marked failed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { copyFixtureProvider } from '../support/copy-fixture-provider.js';
import { enableOverHttp } from '../support/enable-over-http.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { svcOk } from '../support/qwen-demo-project.js';
import { apiOk, readTerminalUntil, startServe, type ServeProcess } from '../support/svc-serve.js';

const HOSTILE_INPUTS = ['ipc-garbage', 'ipc-garbage-framed', 'ipc-deep:5000', 'ipc-deep-tool-call:2000', `ipc-huge:${80 * 1024 * 1024}`, 'ipc-not-protocol'];
const MODES = ['process', 'worker'] as const;
let svc: SvcSandbox;
let server: ServeProcess | undefined;

/** A copy of the hostile fixture under its own id, so one runs hardened and one on a worker. */
function hostileCopy(mode: string): string {
  const dir = copyFixtureProvider('hostile');
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  manifest.svc.id = `svc-test.hostile-${mode}`;
  manifest.name = `@svc-test/svc-provider-hostile-${mode}`;
  // Starting a session is a spawn: only a provider granted process:spawn is asked for one.
  manifest.svc.permissions = ['process:spawn'];
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  return dir;
}

// The set-up goes through the service's HTTP API (one `svc serve` instead of a `svc` start per step);
// the hostile starts below go through the CLI, whose exit code and error line are part of what is checked.
beforeAll(async () => {
  svc = createSvcSandbox();
  const repo = join(svc.home, 'repo');
  mkdirSync(repo);
  // Every input runs: the quarantine threshold is set above the loop (the count is checked below).
  server = await startServe(svc, { SVC_RUNTIME_CRASH_LOOP_CRASHES: '100' });
  await apiOk(server, 'POST', '/api/extensions/dev', { dir: copyFixtureProvider('echo') });
  await enableOverHttp(server, 'svc-test.echo');
  await apiOk(server, 'POST', '/api/connections', { name: 'echo', providerId: 'svc-test.echo' });
  for (const mode of MODES) {
    await apiOk(server, 'POST', '/api/extensions/dev', { dir: hostileCopy(mode) });
    await enableOverHttp(server, `svc-test.hostile-${mode}`, { isolation: mode });
    await apiOk(server, 'POST', '/api/connections', { name: `hostile-${mode}`, providerId: `svc-test.hostile-${mode}` });
  }
  await apiOk(server, 'POST', '/api/workspaces', { name: 'w' });
  await apiOk(server, 'POST', '/api/projects', { name: 'p', workspaceId: 'w', repoPath: repo });
}, 180_000);

afterAll(() => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  svc.cleanup();
});

const taskId = async (title: string) => (await apiOk<{ id: number }>(server!, 'POST', '/api/tasks', { title, projectId: 'p' })).id;

test('svc serve survives every hostile input from a hardened and a worker provider while another task terminal keeps running', async () => {
  if (!server) throw new Error('svc serve did not start');
  const watched = await taskId('Keeps running');
  await apiOk(server, 'POST', `/api/internal/terminal/${watched}/start`, { connection: 'echo' });
  let cursor = (await readTerminalUntil(server, watched, '> ')).cursor as number;
  const hostileTask = await taskId('Hostile starts');

  let tick = 0;
  for (const mode of MODES) {
    for (const input of HOSTILE_INPUTS) {
      const start = await svc.run(['task', 'start', String(hostileTask), '--connection', `hostile-${mode}`, '--model', input], { timeoutMs: 60_000 });
      expect(start.code, `${mode} ${input}: ${start.stderr}`).toBe(1);
      expect(start.stderr, `${mode} ${input}`).toMatch(/error ipc_message_(too_large|too_deep|malformed)/);
      expect(server.child.exitCode, `svc serve after ${mode} ${input}`).toBeNull();
      // The other provider's terminal still answers, and what it printed before is all there.
      const line = `tick-${++tick}`;
      expect((await server.api('POST', `/api/internal/terminal/${watched}/input`, { data: line, submit: true })).status).toBe(200);
      const read = await readTerminalUntil(server, watched, `echo: ${line}`, cursor);
      expect(read.behind).toBe(false);
      cursor = read.cursor;
    }
  }

  expect(server.child.signalCode).toBeNull();
  const shown = JSON.parse(await svcOk(svc, ['task', 'show', String(watched), '--json'])) as { status: string; executions: Array<{ status: string; endReason: string | null }> };
  expect(shown.executions).toHaveLength(1);
  expect(shown.executions[0]!.status).toBe('RUNNING');
  expect(shown.executions[0]!.endReason).toBeNull();
  expect(JSON.parse(await svcOk(svc, ['task', 'show', String(hostileTask), '--json'])).executions).toEqual([]);
  // Each hostile input counted as a crash of the provider that sent it.
  for (const mode of MODES) {
    const doctor = JSON.parse(await svcOk(svc, ['ext', 'doctor', `svc-test.hostile-${mode}`, '--json'])) as { crashes: unknown[] };
    expect(doctor.crashes, mode).toHaveLength(HOSTILE_INPUTS.length);
  }
}, 600_000);
