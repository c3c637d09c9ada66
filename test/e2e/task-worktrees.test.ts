// Every task in its own git worktree, under a real `svc serve` with the Qwen Code stand-in in real
// PTYs: two tasks run at once in their own folders and branches, the overlap check tells their pages
// and the project's Workbench about conflicting edits (not disjoint ones), review comments reach the
// live terminal, the Workbench reads diffs over MCP but cannot merge, merges land (plain and squash) or abort with both sides intact, and discard keeps
// unmerged commits.
import { readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { commitAll, git, makeRepo, writeFiles } from '../support/git-repo.js';
import { QWEN_STAND_IN, prepareQwenDemoProject, svcOk } from '../support/qwen-demo-project.js';
import { connectSvcMcp } from '../support/svc-mcp-client.js';
import { createSvcSandbox, REPO_ROOT, type SvcSandbox } from '../support/svc-process.js';
import { taskTerminalMcpEnv } from '../support/task-terminal-mcp-env.js';
import { readTerminalUntil, startServe, type ServeProcess } from '../support/svc-serve.js';
import { until } from '../support/until.js';

const HERMES = join(REPO_ROOT, 'test/fake-clis/hermes/hermes');
let svc: SvcSandbox;
let server: ServeProcess | undefined;
let repo: string;

const ok = (args: string[]) => svcOk(svc, args);
const json = async (args: string[]) => JSON.parse(await ok([...args, '--json']));
const createTask = async (title: string) => Number(/task (\d+) created/.exec(await ok(['task', 'create', title, '--project', 'demo']))![1]);

beforeAll(async () => {
  svc = createSvcSandbox([QWEN_STAND_IN]);
  repo = await prepareQwenDemoProject(svc);
  makeRepo(repo, { 'README.md': '# demo\n', 'src/greeting.txt': 'hello\nworld\n' });
  git(repo, 'config', 'user.name', 'Project Owner');
  git(repo, 'config', 'user.email', 'owner@example.test');
  // A gateway channel bound to the project, so an owner's message makes its Workbench.
  await ok(['gateway', 'add', 'herm', '--kind', 'hermes', '--command', HERMES]);
  await ok(['channel', 'add', 'tg', '--gateway', 'herm', '--platform', 'telegram', '--to', '4242', '--owner', '4242', '--project', 'demo']);
  server = await startServe(svc, { SVC_WORKTREE_CHECK_INTERVAL_MS: '300', SVC_TERMINAL_STOP_GRACE_MS: '2000', SVC_TERMINAL_INTERRUPT_MS: '300' });
}, 120_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  svc.cleanup();
});

test('two tasks run side by side in their own worktrees; overlaps are flagged; comments, merges and discard keep every side intact', async () => {
  const routed = await server!.api('POST', '/api/internal/harness/gateway', { platform: 'telegram', chatId: '4242', senderId: '4242', platformMessageId: 'tg-1', text: 'status?' });
  const workbench = routed.body.workbenchTaskId as number;
  expect(workbench).toEqual(expect.any(Number));
  expect(await json(['project', 'isolation', 'demo'])).toMatchObject({ isolation: null, effective: 'worktree' });

  const a = await createTask('Shout the greeting');
  const b = await createTask('Whisper the greeting');
  const c = await createTask('Document the project');
  await ok(['task', 'start', String(a), '--connection', 'qwen']);
  await ok(['task', 'start', String(b), '--connection', 'qwen']);
  const bannerA = await readTerminalUntil(server!, a, 'qwen> ');
  await readTerminalUntil(server!, b, 'qwen> ');

  // Each CLI runs in its own worktree, on its own branch, from main.
  const worktreeOf = async (id: number) => (await json(['task', 'worktree', String(id)])).worktree;
  const [wa, wb] = [await worktreeOf(a), await worktreeOf(b)];
  expect(wa).toMatchObject({ branch: `svc/${a}-shout-the-greeting`, baseBranch: 'main', state: 'ACTIVE', baseCommit: git(repo, 'rev-parse', 'main') });
  expect(wa.worktreePath).toBe(join(svc.home, 'worktrees', '1', String(a)));
  expect(wb.worktreePath).not.toBe(wa.worktreePath);
  for (const [id, w] of [[a, wa], [b, wb]] as const) {
    const [execution] = (await json(['task', 'show', String(id)])).executions;
    expect(readlinkSync(`/proc/${execution.pid}/cwd`)).toBe(w.worktreePath);
  }

  // The agents edit the same line differently; a third task touches another file only.
  writeFiles(wa.worktreePath, { 'src/greeting.txt': 'HELLO\nworld\n' });
  commitAll(wa.worktreePath, 'shout');
  writeFiles(wb.worktreePath, { 'src/greeting.txt': 'hello (quietly)\nworld\n', 'src/extra.txt': 'b only\n' });
  commitAll(wb.worktreePath, 'whisper');
  const wc = (await json(['task', 'worktree', String(c), '--create'])).worktree;
  writeFiles(wc.worktreePath, { 'docs/guide.md': '# guide\n' });
  commitAll(wc.worktreePath, 'docs');
  expect(readFileSync(join(wa.worktreePath, 'src/greeting.txt'), 'utf8')).toBe('HELLO\nworld\n');
  expect(readFileSync(join(wb.worktreePath, 'src/greeting.txt'), 'utf8')).toBe('hello (quietly)\nworld\n');
  expect(readFileSync(join(repo, 'src/greeting.txt'), 'utf8')).toBe('hello\nworld\n');
  expect(git(wa.worktreePath, 'ls-files')).not.toContain('src/extra.txt');

  // The background check finds the conflicting pair, on both tasks' pages and at the Workbench.
  const overlaps = await until(async () => {
    const state = await json(['task', 'worktree', String(a)]);
    return state.overlaps.length > 0 ? state.overlaps : undefined;
  }, 20_000, 'the overlap of tasks a and b');
  expect(overlaps).toEqual([expect.objectContaining({ taskA: a, taskB: b, files: ['src/greeting.txt'], conflicts: ['src/greeting.txt'] })]);
  expect((await server!.api('GET', `/api/tasks/${b}/worktree`)).body.overlaps).toHaveLength(1);
  expect((await json(['task', 'worktree', String(c)])).overlaps).toEqual([]);
  const db = new Database(join(svc.home, 'svc.db'), { readonly: true });
  const events = () => db.prepare("SELECT payload, priority FROM harness_workbench_events WHERE kind = 'TASKS_OVERLAP' AND parent_task_id = ?").all(workbench) as { payload: string; priority: string }[];
  await until(() => (events().length > 0 ? true : undefined), 10_000, 'the TASKS_OVERLAP event');
  await new Promise((r) => setTimeout(r, 1200)); // several more passes: still one event for the pair
  expect(events()).toHaveLength(1);
  expect(JSON.parse(events()[0]!.payload)).toMatchObject({ taskIds: [a, b], conflicts: ['src/greeting.txt'] });
  expect(events()[0]!.priority).toBe('high');
  db.close();

  // Review: the diff from the CLI and HTTP, then comments typed into a's live terminal.
  expect(await ok(['task', 'diff', String(a), '--stat'])).toContain('src/greeting.txt');
  const diff = await server!.api('GET', `/api/tasks/${b}/diff`);
  expect(diff.status).toBe(200);
  expect(diff.body.files.map((f: { path: string }) => f.path)).toEqual(['src/extra.txt', 'src/greeting.txt']);
  expect(diff.body.patch).toContain('+hello (quietly)');
  const sent = await server!.api('POST', `/api/tasks/${a}/review-comments`, { comments: [{ filename: 'src/greeting.txt', line: 1, body: 'Keep a comma after HELLO' }] });
  expect(sent).toMatchObject({ status: 200, body: { result: 'already_running' } });
  const typed = await readTerminalUntil(server!, a, 'Keep a comma after HELLO', bannerA.cursor);
  expect(typed.data).toContain('src/greeting.txt:1: Keep a comma after HELLO');

  // The Workbench reviews its children through its own `svc mcp` (profile task): diffs yes, merging no.
  // Its terminal runs in the project folder; its agent's svc mcp carries the execution's credential.
  await ok(['task', 'start', String(workbench), '--connection', 'qwen']);
  await readTerminalUntil(server!, workbench, 'qwen> ');
  const [workbenchRun] = (await json(['task', 'show', String(workbench)])).executions;
  expect(readlinkSync(`/proc/${workbenchRun.pid}/cwd`)).toBe(repo);
  const mcp = await connectSvcMcp(svc, taskTerminalMcpEnv(workbenchRun.pid));
  const viaMcp = await mcp.call<{ files: { path: string }[]; patch: string }>('get_task_diff', { taskId: a });
  expect(viaMcp.files.map((f) => f.path)).toEqual(['src/greeting.txt']);
  expect(viaMcp.patch).toContain('+HELLO');
  expect(await mcp.fail('merge_task', { taskId: a })).toMatchObject({ code: 'unknown_tool' });
  await mcp.close();
  await ok(['task', 'stop', String(workbench)]);

  // Landing: a merges (its running CLI stopped once asked to); b now conflicts and nothing moves; c squashes over HTTP.
  const mainBefore = git(repo, 'rev-parse', 'main');
  const stillRunning = await svc.run(['task', 'merge', String(a)], { timeoutMs: 60_000 });
  expect(stillRunning.code).not.toBe(0);
  expect(stillRunning.stderr).toContain('task_still_running');
  expect(stillRunning.stderr).toContain('--stop');
  expect(git(repo, 'rev-parse', 'main')).toBe(mainBefore);
  expect((await json(['task', 'show', String(a)])).executions[0].status).toBe('RUNNING');
  expect(await ok(['task', 'merge', String(a), '--stop'])).toContain(`merged into main`);
  const mergedA = await json(['task', 'show', String(a)]);
  expect(mergedA).toMatchObject({ status: 'DONE', attention: 'done', mergedCommit: git(repo, 'rev-parse', 'main') });
  expect(mergedA.executions[0]).toMatchObject({ status: 'COMPLETED', outcome: 'stopped' });
  expect((await server!.api('GET', `/api/internal/terminal/${a}`)).body.terminal.state).toBe('ENDED');
  expect(await ok(['task', 'diff', String(a)])).toBe(`Merged as ${git(repo, 'rev-parse', 'main').slice(0, 12)} into main; nothing left to review\n`);
  expect(readFileSync(join(repo, 'src/greeting.txt'), 'utf8')).toBe('HELLO\nworld\n');
  expect(git(repo, 'rev-list', '--parents', '-n', '1', 'main').split(' ')).toEqual([expect.any(String), mainBefore, git(repo, 'rev-parse', wa.branch)]);
  const mainAfterA = git(repo, 'rev-parse', 'main');
  const tipB = git(repo, 'rev-parse', wb.branch);
  // The base moved: b now conflicts with it, on its page and at the Workbench, once.
  expect((await json(['task', 'worktree', String(b)])).worktree.conflictsWithBase).toEqual(['src/greeting.txt']);
  const reopened = new Database(join(svc.home, 'svc.db'), { readonly: true });
  const baseConflicts = () =>
    reopened.prepare("SELECT payload, priority FROM harness_workbench_events WHERE kind = 'TASK_CONFLICTS_WITH_BASE' AND parent_task_id = ?").all(workbench) as { payload: string; priority: string }[];
  await until(() => (baseConflicts().length > 0 ? true : undefined), 10_000, 'the TASK_CONFLICTS_WITH_BASE event');
  expect(baseConflicts()).toHaveLength(1);
  expect(JSON.parse(baseConflicts()[0]!.payload).summary).toContain(`task ${b} now conflicts with main in src/greeting.txt`);
  expect(baseConflicts()[0]!.priority).toBe('high');
  reopened.close();
  const conflict = await svc.run(['task', 'merge', String(b), '--stop'], { timeoutMs: 60_000 });
  expect(conflict.code).not.toBe(0);
  expect(conflict.stderr).toContain('merge_conflict');
  expect(conflict.stderr).toContain('src/greeting.txt');
  expect(git(repo, 'rev-parse', 'main')).toBe(mainAfterA);
  expect(git(repo, 'status', '--porcelain')).toBe('');
  expect(git(wb.worktreePath, 'rev-parse', 'HEAD')).toBe(tipB);
  expect(git(wb.worktreePath, 'status', '--porcelain')).toBe('');
  // The refused merge stopped nothing and closed nothing.
  expect(await json(['task', 'show', String(b)])).toMatchObject({ status: 'IN_PROGRESS', executions: [expect.objectContaining({ status: 'RUNNING' })] });
  const squashed = await server!.api('POST', `/api/tasks/${c}/merge`, { squash: true, message: 'Add the guide' });
  expect(squashed).toMatchObject({ status: 200, body: { outcome: 'merged', squash: true, files: ['docs/guide.md'], taskStatus: 'DONE', stoppedExecutionId: null } });
  expect(git(repo, 'log', '-1', '--format=%s|%P', 'main')).toBe(`Add the guide|${mainAfterA}`);
  expect(readFileSync(join(repo, 'docs/guide.md'), 'utf8')).toBe('# guide\n');

  // Discard b: its terminal stopped, its worktree goes, its unmerged commit stays on its branch.
  await ok(['task', 'stop', String(b)]);
  const discarded = await json(['task', 'discard', String(b)]);
  expect(discarded).toMatchObject({ worktreeRemoved: true, branchDeleted: false, unmergedCommits: [{ sha: tipB, subject: 'whisper' }], taskStatus: 'CANCELLED' });
  expect(git(repo, 'rev-parse', wb.branch)).toBe(tipB);
  expect(await ok(['task', 'branches', '--unmerged'])).toContain(wb.branch);
  const refused = await svc.run(['task', 'discard', String(b), '--delete-branch'], { timeoutMs: 60_000 });
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain('whisper');
  expect(git(repo, 'rev-parse', wb.branch)).toBe(tipB);
  expect(git(repo, 'fsck', '--full', '--no-dangling', '--no-progress')).toBe('');
}, 180_000);
