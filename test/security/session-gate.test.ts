// A session process is a spawn like any other. A hardened provider holding no permission returned
// `/bin/sh -c …` from buildSessionProcess and `svc task start` ran it as the person in `/`; here,
// under a real `svc serve` and through `svc session`, such a provider starts nothing, one granted
// process:spawn may start only its confirmed CLI in the folder svc chose, and what its environment
// patch adds to make that CLI run other code is left out.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copyFixtureProvider } from '../support/copy-fixture-provider.js';
import { enableOverHttp } from '../support/enable-over-http.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { svcOk } from '../support/qwen-demo-project.js';
import { apiOk, readTerminalUntil, startServe, type ServeProcess } from '../support/svc-serve.js';

let svc: SvcSandbox;
let server: ServeProcess | undefined;
let repo: string;

/** A copy of the hostile fixture under its own id, requesting `permissions`. */
function hostileCopy(name: string, permissions: string[]): string {
  const dir = copyFixtureProvider('hostile');
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  manifest.svc.id = `svc-test.hostile-${name}`;
  manifest.name = `@svc-test/svc-provider-hostile-${name}`;
  manifest.svc.permissions = permissions;
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  return dir;
}

beforeAll(async () => {
  svc = createSvcSandbox();
  repo = join(svc.home, 'repo');
  mkdirSync(repo);
  server = await startServe(svc);
  // `none` runs hardened with no permission, as a catalog provider would; `spawn` was granted process:spawn.
  for (const [name, permissions, isolation] of [
    ['none', [], 'process'],
    ['spawn', ['process:spawn'], 'worker'],
  ] as const) {
    await apiOk(server, 'POST', '/api/extensions/dev', { dir: hostileCopy(name, [...permissions]) });
    await enableOverHttp(server, `svc-test.hostile-${name}`, { isolation });
    await apiOk(server, 'POST', '/api/connections', { name: `hostile-${name}`, providerId: `svc-test.hostile-${name}` });
  }
  await apiOk(server, 'POST', '/api/workspaces', { name: 'w' });
  await apiOk(server, 'POST', '/api/projects', { name: 'p', workspaceId: 'w', repoPath: repo });
}, 180_000);

afterAll(() => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  svc.cleanup();
});

const newTask = async (title: string) => (await apiOk<{ id: number }>(server!, 'POST', '/api/tasks', { title, projectId: 'p' })).id;
const executionsOf = async (taskId: number) => JSON.parse(await svcOk(svc, ['task', 'show', String(taskId), '--json'])).executions as Array<{ status: string; pid: number }>;
const marker = (name: string) => join(svc.home, `${name}.marker`);

describe('what a provider names to start in a terminal', () => {
  test('a provider holding no permission starts nothing: svc task start and svc session refuse with permission_denied', async () => {
    const task = await newTask('no permission');
    const started = await svc.run(['task', 'start', String(task), '--connection', 'hostile-none', '--model', `session-shell:${marker('none-task')}`], { timeoutMs: 60_000 });
    expect(started.code, started.stderr).toBe(1);
    expect(started.stderr).toMatch(/error permission_denied: svc-test\.hostile-none may not start an interactive session/);
    expect(started.stderr).toMatch(/fix: .*process:spawn/);
    expect(existsSync(marker('none-task'))).toBe(false);
    expect(await executionsOf(task)).toEqual([]);

    const session = await svc.run(['session', '--connection', 'hostile-none', '--model', `session-shell:${marker('none-session')}`], { timeoutMs: 60_000 });
    expect(session.code, session.stderr).toBe(1);
    expect(session.stderr).toMatch(/error permission_denied/);
    expect(existsSync(marker('none-session'))).toBe(false);
  }, 120_000);

  test('a provider granted process:spawn may start only its confirmed CLI, in the folder svc chose', async () => {
    const task = await newTask('other executable');
    for (const [what, code] of [
      ['session-shell', 'session_command_refused'],
      ['session-path', 'session_command_refused'],
      ['session-cwd', 'session_cwd_refused'],
    ] as const) {
      const file = marker(`spawn-${what}`);
      const started = await svc.run(['task', 'start', String(task), '--connection', 'hostile-spawn', '--model', `${what}:${file}`], { timeoutMs: 60_000 });
      expect(started.code, `${what}: ${started.stderr}`).toBe(1);
      expect(started.stderr, what).toContain(`error ${code}`);
      const session = await svc.run(['session', '--connection', 'hostile-spawn', '--model', `${what}:${file}`], { timeoutMs: 60_000 });
      expect(session.code, `${what}: ${session.stderr}`).toBe(1);
      expect(session.stderr, what).toContain(`error ${code}`);
      expect(existsSync(file), what).toBe(false);
    }
    expect(await executionsOf(task)).toEqual([]);
  }, 180_000);

  test("the provider's environment patch reaches its CLI without NODE_OPTIONS, LD_PRELOAD, BASH_ENV or SVC_ keys", async () => {
    const task = await newTask('environment');
    // What NODE_OPTIONS=--require would run in the (Node) CLI before its own code.
    const preload = join(svc.home, 'preload.cjs');
    writeFileSync(preload, `require('node:fs').writeFileSync(${JSON.stringify(`${preload}.ran`)}, 'ran');\n`);
    await svcOk(svc, ['task', 'start', String(task), '--connection', 'hostile-spawn', '--model', `session-env:${preload}`]);
    await readTerminalUntil(server!, task, '> ');
    const [running] = await executionsOf(task);
    const environ = readFileSync(`/proc/${running!.pid}/environ`, 'utf8').split('\0');
    expect(environ).toContain('HOSTILE_KEPT=yes');
    for (const key of ['NODE_OPTIONS', 'LD_PRELOAD', 'BASH_ENV']) expect(environ.some((entry) => entry.startsWith(`${key}=`)), key).toBe(false);
    expect(environ).not.toContain('SVC_HOME=/tmp');
    expect(environ.join('\n')).not.toContain(server!.token);
    expect(existsSync(`${preload}.ran`)).toBe(false);
    // Starting sessions is what its process:spawn is used for: not reported as never used.
    const shown = await apiOk<{ unusedPermissions: string[] }>(server!, 'GET', '/api/extensions/svc-test.hostile-spawn/description');
    expect(shown.unusedPermissions).not.toContain('process:spawn');
    await svcOk(svc, ['task', 'stop', String(task)]);
  }, 120_000);
});

test("a Host Context process:spawn call's environment patch is filtered the same way", async () => {
  const answer = await svc.run(['query', '--connection', 'hostile-spawn', 'host-env'], { timeoutMs: 60_000 });
  expect(answer.code, answer.stderr).toBe(0);
  const environ = answer.stdout.split('\n');
  expect(environ).toContain('HOSTILE_KEPT=yes');
  for (const key of ['LD_PRELOAD', 'NODE_OPTIONS']) expect(environ.some((entry) => entry.startsWith(`${key}=`)), key).toBe(false);
  expect(environ).not.toContain('PATH=/nonexistent');
}, 60_000);

describe('what the person is told before enabling', () => {
  test('the enable prompt and svc ext show say that sessions start the confirmed CLI and need process:spawn', async () => {
    const none = await apiOk<{ sessions?: string; isolation?: { enforces: string[] } }>(server!, 'GET', '/api/extensions/svc-test.hostile-none/permissions?isolation=process');
    expect(none.sessions).toMatch(/^interactive sessions: none will start .*needs process:spawn, not requested/);
    expect(none.isolation!.enforces.join('; ')).not.toMatch(/^no child processes/m);
    const spawn = await apiOk<{ sessions?: string }>(server!, 'GET', '/api/extensions/svc-test.hostile-spawn/permissions');
    expect(spawn.sessions).toMatch(/^interactive sessions: start the CLI \/\S+svc-echo-cli and nothing else, .*needs process:spawn/);
    const shown = await svcOk(svc, ['ext', 'show', 'svc-test.hostile-none']);
    expect(shown).toContain('interactive sessions: none will start');
    expect(await svcOk(svc, ['ext', 'show', 'svc-test.hostile-spawn'])).toMatch(/interactive sessions: start the CLI \/\S+svc-echo-cli and nothing else/);
  }, 60_000);
});
