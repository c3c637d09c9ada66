// The task lifecycle's state table (docs/task-worktrees.md), row by row, through one real `svc serve`
// with the Qwen Code stand-in in real PTYs: each event, then the task, its execution, its terminal
// and its worktree afterwards, and the task's attention as every face answers it (CLI --json,
// HTTP, MCP get_task and list_tasks). Shutdown and restart are rows of test/e2e/service.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { commitAll, git, makeRepo, writeFiles } from '../support/git-repo.js';
import { QWEN_STAND_IN, prepareQwenDemoProject, svcOk } from '../support/qwen-demo-project.js';
import { connectSvcMcp, type SvcMcp } from '../support/svc-mcp-client.js';
import { createSvcSandbox, SVC_BIN, type SvcSandbox } from '../support/svc-process.js';
import { readTerminalUntil, startServe, type ServeProcess } from '../support/svc-serve.js';
import { until } from '../support/until.js';

let svc: SvcSandbox;
let server: ServeProcess;
let mcp: SvcMcp;
let repo: string;

const ok = (args: string[]) => svcOk(svc, args);
const json = async (args: string[]) => JSON.parse(await ok([...args, '--json']));
/** `svc <args>` in a real terminal: waits for `question`, answers `answer`; its exit code and screen. */
async function answered(args: string[], question: string, answer: string): Promise<{ code: number; screen: string }> {
  const term = pty.spawn(process.execPath, [SVC_BIN, ...args], { cols: 120, rows: 30, env: svc.env as Record<string, string> });
  let screen = '';
  term.onData((data) => (screen += data));
  const exited = new Promise<number>((resolve) => term.onExit(({ exitCode }) => resolve(exitCode)));
  await until(() => (screen.includes(question) ? true : undefined), 30_000, `"${question}" from svc ${args.join(' ')}`);
  term.write(answer);
  return { code: await exited, screen };
}

const createTask = async (title: string) => Number(/task (\d+) created/.exec(await ok(['task', 'create', title, '--project', 'demo']))![1]);

interface Row {
  task: string;
  execution: { status: string; outcome: string | null } | null;
  terminal: string | null;
  worktree: string | null;
  attention: string;
}

/** The task, its latest execution, its terminal and its worktree, and its attention on every face (which must agree). */
async function stateOf(taskId: number): Promise<Row> {
  const shown = await json(['task', 'show', String(taskId)]);
  const listed = (await json(['task', 'list', '--project', 'demo'])).find((t: { id: number }) => t.id === taskId);
  const http = (await server.api('GET', `/api/tasks/${taskId}`)).body;
  const httpListed = (await server.api('GET', '/api/tasks?projectId=demo')).body.items.find((t: { id: number }) => t.id === taskId);
  const viaMcp = await mcp.call('get_task', { id: taskId });
  const mcpListed = (await mcp.call('list_tasks', { projectId: 'demo' })).items.find((t: { id: number }) => t.id === taskId);
  const faces = { cliShow: shown.attention, cliList: listed.attention, http: http.attention, httpList: httpListed.attention, mcp: viaMcp.attention, mcpList: mcpListed.attention };
  expect(new Set(Object.values(faces)).size, JSON.stringify(faces)).toBe(1);
  expect(listed.projectName).toBe('demo');
  const terminal = (await server.api('GET', `/api/internal/terminal/${taskId}`)).body.terminal;
  const worktree = (await server.api('GET', `/api/tasks/${taskId}/worktree`)).body.worktree;
  const latest = shown.executions[0];
  return {
    task: shown.status,
    execution: latest ? { status: latest.status, outcome: latest.outcome } : null,
    terminal: terminal?.state ?? null,
    worktree: worktree?.state ?? null,
    attention: shown.attention,
  };
}

beforeAll(async () => {
  svc = createSvcSandbox([QWEN_STAND_IN]);
  repo = await prepareQwenDemoProject(svc);
  makeRepo(repo, { 'app.js': 'console.log("hello");\n', 'README.md': '# demo\n' });
  server = await startServe(svc, {
    SVC_WORKTREE_CHECK_INTERVAL_MS: '300',
    SVC_TERMINAL_STOP_GRACE_MS: '2000',
    SVC_TERMINAL_INTERRUPT_MS: '300',
    SVC_TERMINAL_PROMPT_WAIT_MS: '500',
  });
  mcp = await connectSvcMcp(svc);
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  svc.cleanup();
});

test('each event of the state table leaves the task, its execution, its terminal and its worktree as the table says, and every face agrees on its attention', async () => {
  const one = await createTask('Shout the greeting');
  expect(await stateOf(one)).toEqual({ task: 'TODO', execution: null, terminal: null, worktree: null, attention: 'idle' });

  // start
  await ok(['task', 'start', String(one), '--connection', 'qwen']);
  const banner = await readTerminalUntil(server, one, 'qwen> ');
  expect(await stateOf(one)).toEqual({ task: 'IN_PROGRESS', execution: { status: 'RUNNING', outcome: null }, terminal: 'RUNNING', worktree: 'ACTIVE', attention: 'working' });

  // the CLI ends a turn and waits at its own prompt (its Stop hook), then takes a message (its prompt hook)
  expect((await server.api('POST', '/api/internal/hooks/stop', { taskId: one, event: { turn_id: 't1' } })).status).toBe(202);
  expect((await stateOf(one)).attention).toBe('needs_you');
  expect((await server.api('POST', '/api/internal/hooks/prompt', { taskId: one })).status).toBe(202);
  expect((await stateOf(one)).attention).toBe('working');

  // question asked, then answered
  expect((await server.api('POST', '/api/internal/harness/ask', { taskId: one, question: 'Upper case?' })).status).toBe(201);
  expect(await stateOf(one)).toEqual({ task: 'IN_PROGRESS', execution: { status: 'PAUSED', outcome: null }, terminal: 'PAUSED', worktree: 'ACTIVE', attention: 'needs_you' });
  expect((await server.api('POST', '/api/internal/harness/reply', { taskId: one, reply: 'yes' })).status).toBe(200);
  await readTerminalUntil(server, one, 'You said: yes', banner.cursor);
  expect(await stateOf(one)).toEqual({ task: 'IN_PROGRESS', execution: { status: 'RUNNING', outcome: null }, terminal: 'RUNNING', worktree: 'ACTIVE', attention: 'working' });

  // stop (a person's Stop): neutral, and the changes it left are ready for review
  const worktreeOne = (await json(['task', 'worktree', String(one)])).worktree.worktreePath;
  writeFiles(worktreeOne, { 'app.js': 'console.log("HELLO");\n' });
  commitAll(worktreeOne, 'shout');
  expect(await ok(['task', 'stop', String(one)])).toMatch(/execution \d+ Stopped\n/);
  expect(await stateOf(one)).toEqual({ task: 'IN_PROGRESS', execution: { status: 'COMPLETED', outcome: 'stopped' }, terminal: 'ENDED', worktree: 'ACTIVE', attention: 'ready_for_review' });
  const shownAfterStop = await ok(['task', 'show', String(one)]);
  expect(shownAfterStop).toContain('Stopped');
  expect(shownAfterStop).not.toMatch(/FAILED|Failed/);
  // The ended terminal keeps its scrollback.
  expect((await server.api('GET', `/api/internal/terminal/${one}/buffer`)).body.data).toContain('You said: yes');

  // resume
  await ok(['task', 'resume', String(one)]);
  await readTerminalUntil(server, one, 'Continuing the most recent session');
  expect(await stateOf(one)).toEqual({ task: 'IN_PROGRESS', execution: { status: 'RUNNING', outcome: null }, terminal: 'RUNNING', worktree: 'ACTIVE', attention: 'working' });

  // a second task edits the same line: both conflict while both are open
  const two = await createTask('Whisper the greeting');
  const worktreeTwo = (await json(['task', 'worktree', String(two), '--create'])).worktree.worktreePath;
  writeFiles(worktreeTwo, { 'app.js': 'console.log("hello (quietly)");\n' });
  commitAll(worktreeTwo, 'whisper');
  await until(async () => ((await json(['task', 'show', String(two)])).attention === 'conflicts' ? true : undefined), 20_000, 'the conflict of tasks one and two');
  expect(await stateOf(two)).toEqual({ task: 'TODO', execution: null, terminal: null, worktree: 'ACTIVE', attention: 'conflicts' });
  expect((await stateOf(one)).attention).toBe('conflicts');

  // merge while running, without saying to stop: refused, nothing changes
  const mainBefore = git(repo, 'rev-parse', 'main');
  const refused = await server.api('POST', `/api/tasks/${one}/merge`, {});
  expect(refused).toMatchObject({ status: 409, body: { error: { code: 'task_still_running' } } });
  expect(git(repo, 'rev-parse', 'main')).toBe(mainBefore);
  expect(await stateOf(one)).toMatchObject({ task: 'IN_PROGRESS', execution: { status: 'RUNNING', outcome: null }, terminal: 'RUNNING', worktree: 'ACTIVE' });

  // merge with stop: landed, stopped, DONE, the merge commit recorded and shown by the review
  const merged = await server.api('POST', `/api/tasks/${one}/merge`, { stop: true });
  expect(merged).toMatchObject({ status: 200, body: { outcome: 'merged', taskStatus: 'DONE', stoppedExecutionId: expect.any(Number) } });
  const mergeCommit = git(repo, 'rev-parse', 'main');
  expect(merged.body.commit).toBe(mergeCommit);
  expect(await stateOf(one)).toEqual({ task: 'DONE', execution: { status: 'COMPLETED', outcome: 'stopped' }, terminal: 'ENDED', worktree: 'ACTIVE', attention: 'done' });
  expect((await json(['task', 'show', String(one)])).mergedCommit).toBe(mergeCommit);
  expect((await server.api('GET', `/api/tasks/${one}/diff`)).body).toMatchObject({ files: [], mergedCommit: mergeCommit });
  expect(await ok(['task', 'diff', String(one)])).toContain(`Merged as ${mergeCommit.slice(0, 12)} into main`);
  expect(readFileSync(join(repo, 'app.js'), 'utf8')).toBe('console.log("HELLO");\n');
  // With task one closed, task two no longer conflicts with an open task, but it now conflicts with
  // main, where task one's change landed.
  expect((await stateOf(two)).attention).toBe('conflicts');
  expect((await json(['task', 'worktree', String(two)])).worktree.conflictsWithBase).toEqual(['app.js']);

  // squash-merge, kept open
  const three = await createTask('Document the project');
  await ok(['task', 'start', String(three), '--connection', 'qwen']);
  await readTerminalUntil(server, three, 'qwen> ');
  const worktreeThree = (await json(['task', 'worktree', String(three)])).worktree.worktreePath;
  writeFiles(worktreeThree, { 'docs/guide.md': '# guide\n' });
  commitAll(worktreeThree, 'docs');
  const squashed = JSON.parse(await ok(['task', 'merge', String(three), '--squash', '--stop', '--keep-open', '--json']));
  expect(squashed).toMatchObject({ outcome: 'merged', squash: true, taskStatus: 'IN_PROGRESS' });
  expect(await stateOf(three)).toEqual({ task: 'IN_PROGRESS', execution: { status: 'COMPLETED', outcome: 'stopped' }, terminal: 'ENDED', worktree: 'ACTIVE', attention: 'idle' });
  expect((await json(['task', 'show', String(three)])).mergedCommit).toBe(git(repo, 'rev-parse', 'main'));

  // discard while running: refused without stop, then stopped, removed and CANCELLED
  await ok(['task', 'start', String(two), '--connection', 'qwen']);
  await readTerminalUntil(server, two, 'qwen> ');
  const notStopped = await svc.run(['task', 'discard', String(two)], { timeoutMs: 60_000 });
  expect(notStopped.code).not.toBe(0);
  expect(notStopped.stderr).toContain('task_still_running');
  expect(await stateOf(two)).toMatchObject({ task: 'IN_PROGRESS', execution: { status: 'RUNNING', outcome: null }, worktree: 'ACTIVE' });
  // At a terminal the CLI asks first: no keeps it running, yes stops it and discards.
  const declined = await answered(['task', 'discard', String(two)], 'Stop it and discard its worktree? [y/N]', 'n\r');
  expect(declined.code).toBe(1);
  expect(declined.screen).toContain('nothing removed; the task keeps running');
  expect(await stateOf(two)).toMatchObject({ task: 'IN_PROGRESS', execution: { status: 'RUNNING', outcome: null }, worktree: 'ACTIVE' });
  const accepted = await answered(['task', 'discard', String(two)], 'Stop it and discard its worktree? [y/N]', 'y\r');
  expect(accepted.code).toBe(0);
  expect(accepted.screen).toContain('the task is CANCELLED');
  expect(await stateOf(two)).toEqual({ task: 'CANCELLED', execution: { status: 'COMPLETED', outcome: 'stopped' }, terminal: 'ENDED', worktree: 'REMOVED', attention: 'done' });

  // the CLI ends by itself: cleanly (completed, its changes ready for review), or not (a real failure)
  const four = await createTask('Quits by itself');
  await ok(['task', 'start', String(four), '--connection', 'qwen']);
  await readTerminalUntil(server, four, 'qwen> ');
  writeFiles((await json(['task', 'worktree', String(four)])).worktree.worktreePath, { 'NOTES.md': 'uncommitted\n' });
  await server.api('POST', `/api/internal/terminal/${four}/input`, { data: '/quit', submit: true });
  await until(async () => ((await json(['task', 'show', String(four)])).executions[0].status !== 'RUNNING' ? true : undefined), 10_000, 'task four to end');
  expect(await stateOf(four)).toEqual({ task: 'IN_PROGRESS', execution: { status: 'COMPLETED', outcome: 'completed' }, terminal: 'ENDED', worktree: 'ACTIVE', attention: 'ready_for_review' });
  const five = await createTask('Crashes');
  await ok(['task', 'start', String(five), '--connection', 'qwen']);
  await readTerminalUntil(server, five, 'qwen> ');
  process.kill((await json(['task', 'show', String(five)])).executions[0].pid, 'SIGKILL');
  await until(async () => ((await json(['task', 'show', String(five)])).executions[0].status !== 'RUNNING' ? true : undefined), 10_000, 'task five to end');
  expect(await stateOf(five)).toEqual({ task: 'IN_PROGRESS', execution: { status: 'FAILED', outcome: 'failed' }, terminal: 'ENDED', worktree: 'ACTIVE', attention: 'needs_you' });
  expect(await ok(['task', 'show', String(five)])).toContain('Failed (signal 9)');

  // `svc task list` names the project
  const table = await ok(['task', 'list']);
  expect(table).toMatch(/ID\s+PROJECT\s+STATUS\s+ATTENTION/);
  expect(table).toMatch(new RegExp(`${five}\\s+demo\\s+IN_PROGRESS\\s+needs you`));
  expect(git(repo, 'fsck', '--full', '--no-dangling', '--no-progress')).toBe('');
}, 240_000);
