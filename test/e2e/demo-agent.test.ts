// The demo agent shipped with svc, under a real `svc serve` in real PTYs: registered at start like the
// official providers and runnable only once enabled; in a task terminal it edits the file its task
// names, asks one question through ask_human, takes the reply svc types into its live terminal,
// commits and ends. Two tasks that both name app.js land one after the other until the second
// conflicts, with nothing merged.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { git, makeRepo } from '../support/git-repo.js';
import { svcOk } from '../support/qwen-demo-project.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { readTerminalUntil, startServe, type ServeProcess } from '../support/svc-serve.js';
import { until } from '../support/until.js';

let svc: SvcSandbox;
let server: ServeProcess | undefined;
let repo: string;

const ok = (args: string[]) => svcOk(svc, args);
const json = async (args: string[]) => JSON.parse(await ok([...args, '--json']));
const createTask = async (title: string) => Number(/task (\d+) created/.exec(await ok(['task', 'create', title, '--project', 'hello']))![1]);

beforeAll(async () => {
  svc = createSvcSandbox();
  repo = makeRepo(join(svc.home, 'repo'), { 'app.js': 'console.log("hello");\n' });
  git(repo, 'config', 'user.name', 'Project Owner');
  git(repo, 'config', 'user.email', 'owner@example.test');
  server = await startServe(svc);
}, 120_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  svc.cleanup();
});

/** The OPEN question of a task, once its agent has asked it. */
const openAsk = (taskId: number) =>
  until(async () => {
    const { body } = await server!.api('GET', `/api/harness/messages?taskId=${taskId}&status=OPEN`);
    return body.items?.[0];
  }, 30_000, `task ${taskId}'s question`);

const ended = (taskId: number) =>
  until(async () => {
    const [execution] = (await json(['task', 'show', String(taskId)])).executions;
    return execution.status !== 'RUNNING' && execution.status !== 'PAUSED' ? execution : undefined;
  }, 30_000, `task ${taskId}'s agent to end`);

test('the demo agent runs only once enabled, then edits, asks once, takes the reply, commits and ends', async () => {
  // Registered at start, disabled: nothing of it runs before the person confirms its permission.
  expect(await ok(['ext', 'list'])).toMatch(/svc-official\.demo\s.*disabled/);
  await ok(['connection', 'add', 'demo', '--provider', 'svc-official.demo']);
  await ok(['workspace', 'create', 'demo']);
  await ok(['project', 'create', 'hello', '--workspace', 'demo', '--repo', repo]);
  const first = await createTask('Greet the visitor in app.js');
  const refused = await svc.run(['task', 'start', String(first), '--connection', 'demo'], { timeoutMs: 60_000 });
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain('svc ext enable svc-official.demo');
  expect((await json(['task', 'show', String(first)])).executions).toEqual([]);
  await ok(['ext', 'enable', 'svc-official.demo', '--yes']);

  const second = await createTask('Log the start in app.js');
  await ok(['task', 'start', String(first), '--connection', 'demo']);
  await ok(['task', 'start', String(second), '--connection', 'demo']);

  // Each asks one question through ask_human: the task is parked, its terminal alive.
  const ask = await openAsk(first);
  expect(ask.body).toBe(`Task ${first} drafted app.js for "Greet the visitor in app.js". Which line should it end with?\n\n1. Greet the visitor in app.js: done\n2. Greet the visitor in app.js: later`);
  expect((await json(['task', 'show', String(first)])).executions[0]).toMatchObject({ status: 'PAUSED', unsupportedAttachments: [] });
  const [execution] = (await json(['task', 'show', String(first)])).executions;
  // Its MCP server's credential travels in a 0600 file of the run, not in any argument.
  expect(readFileSync(`/proc/${execution.pid}/cmdline`, 'utf8')).not.toContain('SVC_TASK_CREDENTIAL');
  const asked = await readTerminalUntil(server!, first, 'answer> ');
  expect(asked.data).toContain(`task ${first}: "Greet the visitor in app.js"\r\nedited app.js\r\n`);
  expect(asked.data).toContain('  options: Greet the visitor in app.js: done | Greet the visitor in app.js: later\r\n');
  const worktree = (await json(['task', 'worktree', String(first)])).worktree.worktreePath;
  expect(readFileSync(join(worktree, 'app.js'), 'utf8')).toBe('console.log("hello");\n// Greet the visitor in app.js (task 1)\n');

  // The reply is typed into the live terminal; the agent writes it in, commits and ends.
  expect(await ok(['harness', 'reply', String(ask.id), 'Welcome, visitor'])).toContain('already_running');
  await readTerminalUntil(server!, first, 'done\r\n', asked.cursor);
  expect(await ended(first)).toMatchObject({ status: 'COMPLETED', exitCode: 0 });
  expect(readFileSync(join(worktree, 'app.js'), 'utf8')).toBe(
    'console.log("hello");\n// Greet the visitor in app.js (task 1)\nconsole.log("Welcome, visitor");\n',
  );
  expect(git(worktree, 'status', '--porcelain')).toBe('');
  expect(git(worktree, 'log', '-1', '--format=%an|%s')).toBe('svc demo agent|Greet the visitor in app.js');

  // The second task made its own change to the same file; landed one after the other, it conflicts.
  await ok(['harness', 'reply', String((await openAsk(second)).id), 'started']);
  expect(await ended(second)).toMatchObject({ status: 'COMPLETED', exitCode: 0 });
  expect(await ok(['task', 'diff', String(second)])).toContain('+console.log("started");');
  expect(await ok(['task', 'merge', String(first)])).toContain('merged into main');
  const main = git(repo, 'rev-parse', 'main');
  const conflict = await svc.run(['task', 'merge', String(second)], { timeoutMs: 60_000 });
  expect(conflict.code).not.toBe(0);
  expect(conflict.stderr).toContain('merge_conflict');
  expect(git(repo, 'rev-parse', 'main')).toBe(main);
  expect(readFileSync(join(repo, 'app.js'), 'utf8')).toContain('console.log("Welcome, visitor");');
}, 240_000);

test('stopped while it waits, the agent is resumed by the reply and finishes; review comments after that are read as one message and change nothing', async () => {
  const task = await createTask('Write the notes');
  await ok(['task', 'start', String(task), '--connection', 'demo']);
  const ask = await openAsk(task);
  await readTerminalUntil(server!, task, 'answer> ');
  await ok(['task', 'stop', String(task)]);
  // Stopped by a person: not a failure, and not completed either.
  expect(await ended(task)).toMatchObject({ status: 'COMPLETED', outcome: 'stopped' });
  // The question stays open; the reply resumes the agent's session, which waits for it again.
  expect(await ok(['harness', 'reply', String(ask.id), 'Keep them short'])).toContain('resumed');
  await until(async () => {
    const executions = (await json(['task', 'show', String(task)])).executions;
    return executions.length === 2 && executions[0].outcome === 'completed' ? executions : undefined;
  }, 60_000, 'the resumed agent to finish');
  const output = await ok(['task', 'output', String(task)]);
  expect(output).toContain('resumed: the draft of write-the-notes.md waits for the answer to its question');
  const worktree = (await json(['task', 'worktree', String(task)])).worktree.worktreePath;
  expect(readFileSync(join(worktree, 'write-the-notes.md'), 'utf8')).toBe('# Write the notes\n\nKeep them short\n');
  expect(git(worktree, 'status', '--porcelain')).toBe('');

  // Review comments after its commit resume it once more: it reads them as one message, notes them, changes nothing.
  const review = await server!.api('POST', `/api/tasks/${task}/review-comments`, {
    comments: [
      { filename: 'write-the-notes.md', line: 1, body: 'A shorter title' },
      { filename: 'write-the-notes.md', line: 3, body: 'Say why' },
    ],
  });
  expect(review).toMatchObject({ status: 200, body: { result: 'resumed' } });
  await until(async () => {
    const executions = (await json(['task', 'show', String(task)])).executions;
    return executions.length === 3 && executions[0].status === 'COMPLETED' ? executions : undefined;
  }, 60_000, 'the agent to note the review and end');
  const noted = await ok(['task', 'output', String(task)]);
  expect(noted).toContain('resumed: nothing left to do (write-the-notes.md has no draft waiting for an answer)');
  expect(noted).toContain('- write-the-notes.md:3: Say why');
  expect(noted).toContain('noted your message of 3 lines; the demo agent is scripted and changes nothing more');
  expect(git(worktree, 'log', '-1', '--format=%s')).toBe('Write the notes');
}, 240_000);
