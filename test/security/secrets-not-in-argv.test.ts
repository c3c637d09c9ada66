// No secret in argv: every account on the machine reads every process's command line (`ps`). Each
// official provider's task terminal runs under a real `svc serve` on its stand-in CLI; then every
// process of the service's tree is read from /proc: no command line holds a task credential or the
// install token. The credential reaches `svc mcp` in the run's owner-only secrets file instead.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { enableOverHttp } from '../support/enable-over-http.js';
import { QWEN_PROVIDER, QWEN_STAND_IN, svcOk } from '../support/qwen-demo-project.js';
import { processTreeBelow } from '../support/process-tree.js';
import { createSvcSandbox, REPO_ROOT, waitFor, type SvcSandbox } from '../support/svc-process.js';
import { apiOk, startServe, type ServeProcess } from '../support/svc-serve.js';

const PROVIDERS = [
  { id: 'svc-official.claude-code', connection: 'claude' },
  { id: 'svc-official.codex', connection: 'codex' },
  { id: 'svc-official.gemini-cli', connection: 'gemini' },
  { id: 'svc-community.qwen-code', connection: 'qwen' },
];
const CREDENTIAL = /svct_[\w-]{20,}/;

let svc: SvcSandbox;
let server: ServeProcess | undefined;

beforeAll(async () => {
  svc = createSvcSandbox(['claude-code', 'codex', 'gemini-cli'].map((name) => join(REPO_ROOT, 'test/fake-clis', name)).concat(QWEN_STAND_IN));
  // A scratch HOME: the CLIs' own settings (Claude Code's onboarding is done there).
  const home = join(svc.home, 'home');
  mkdirSync(home);
  writeFileSync(join(home, '.claude.json'), JSON.stringify({ hasCompletedOnboarding: true }));
  svc.env.HOME = home;
  const repo = join(svc.home, 'repo');
  mkdirSync(repo);
  server = await startServe(svc);
  await apiOk(server, 'POST', '/api/extensions/dev', { dir: QWEN_PROVIDER });
  for (const { id, connection } of PROVIDERS) {
    await enableOverHttp(server, id);
    await apiOk(server, 'POST', '/api/connections', { name: connection, providerId: id });
  }
  await apiOk(server, 'POST', '/api/workspaces', { name: 'w' });
  await apiOk(server, 'POST', '/api/projects', { name: 'p', workspaceId: 'w', repoPath: repo });
}, 180_000);

afterAll(() => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  svc.cleanup();
});

test("no process of svc serve's tree carries a task credential or the install token in its command line, for every official provider", async () => {
  const running: Array<{ id: string; task: number; pid: number }> = [];
  for (const { id, connection } of PROVIDERS) {
    const task = (await apiOk<{ id: number }>(server!, 'POST', '/api/tasks', { title: `${connection} terminal`, projectId: 'p' })).id;
    await svcOk(svc, ['task', 'start', String(task), '--connection', connection]);
    const pid = await waitFor(async () => {
      const executions = JSON.parse(await svcOk(svc, ['task', 'show', String(task), '--json'])).executions as Array<{ status: string; pid: number | null }>;
      return executions[0]?.status === 'RUNNING' && executions[0].pid ? executions[0].pid : undefined;
    }, 30_000, `${id}'s terminal`);
    running.push({ id, task, pid });
  }
  // The CLIs (and whatever they start) are up.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const tree = processTreeBelow(server!.child.pid!);
  for (const { id, pid } of running) expect(tree.map((process) => process.pid), `${id}'s CLI is in the service's tree`).toContain(pid);
  for (const { pid, command } of tree) {
    expect(command, `process ${pid}`).not.toMatch(CREDENTIAL);
    expect(command, `process ${pid}`).not.toContain(server!.token);
  }
  // Each credential is in its run's private secrets file, owner-only, and in no command line either.
  const runs = join(svc.home, 'runs');
  for (const { id, task } of running) {
    const run = readdirSync(runs).find((name) => name.startsWith(`task-${task}-`));
    expect(run, id).toBeDefined();
    const secrets = join(runs, run!, '.svc-task-secrets.json');
    expect(statSync(secrets).mode & 0o777, id).toBe(0o600);
    const { SVC_TASK_CREDENTIAL: credential } = JSON.parse(readFileSync(secrets, 'utf8')) as { SVC_TASK_CREDENTIAL: string };
    expect(credential, id).toMatch(CREDENTIAL);
    for (const { pid, command } of tree) expect(command, `process ${pid}`).not.toContain(credential);
  }
}, 240_000);
