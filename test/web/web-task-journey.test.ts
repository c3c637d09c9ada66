/// <reference lib="dom" />
// A task's journey across the CLI and the web (a real Chromium) against one real `svc serve`, with
// the demo agent shipped with svc in real PTYs: two tasks on one repository both change app.js, each
// asks its one question and is answered (one from the CLI, one on the board); task 1 is merged and
// is DONE, its terminal ended, its review showing the merge commit; task 2 then conflicts with main
// on every face (svc task list, svc task show, svc status, the HTTP answer, MCP get_task, the board
// and the task's page); its worktree holds a hand-written, git-ignored .env, which discarding lists
// and refuses to remove until the person confirms (the CLI without --force, the web dialog's
// Cancel); confirmed, it is removed, and `svc task restore` brings it back byte for byte.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { git, makeRepo } from '../support/git-repo.js';
import { svcOk } from '../support/qwen-demo-project.js';
import { connectSvcMcp, type SvcMcp } from '../support/svc-mcp-client.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { readTerminalUntil, startServe, type ServeProcess } from '../support/svc-serve.js';
import { until } from '../support/until.js';
import { launchBrowser, signedInPage } from './web-browser.js';

let svc: SvcSandbox;
let serve: ServeProcess;
let mcp: SvcMcp;
let browser: Browser;
let page: Page;
let repo: string;

const ok = (args: string[]) => svcOk(svc, args);
const json = async (args: string[]) => JSON.parse(await ok([...args, '--json']));
const createTask = async (title: string) => Number(/task (\d+) created/.exec(await ok(['task', 'create', title, '--project', 'hello']))![1]);

beforeAll(async () => {
  svc = createSvcSandbox();
  repo = makeRepo(join(svc.home, 'repo'), { 'app.js': 'console.log("hello");\n', '.gitignore': '.env\n' });
  git(repo, 'config', 'user.name', 'Project Owner');
  git(repo, 'config', 'user.email', 'owner@example.test');
  serve = await startServe(svc);
  mcp = await connectSvcMcp(svc);
  browser = await launchBrowser();
  ({ page } = await signedInPage(browser, serve, { width: 1280, height: 1000 }));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await mcp?.close();
  if (serve && serve.child.exitCode === null) {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
  svc?.cleanup();
});

/** The task's question, once its agent has asked it. */
const openAsk = (taskId: number) =>
  until(async () => (await serve.api('GET', `/api/harness/messages?taskId=${taskId}&status=OPEN`)).body.items?.[0], 30_000, `task ${taskId}'s question`);

const ended = (taskId: number) =>
  until(async () => {
    const [execution] = (await json(['task', 'show', String(taskId)])).executions;
    return execution.status !== 'RUNNING' && execution.status !== 'PAUSED' ? execution : undefined;
  }, 30_000, `task ${taskId}'s agent to end`);

test('two tasks change app.js: the first merges and is done, the second conflicts with main everywhere, and its .env survives discard and restore', async () => {
  page.setDefaultTimeout(20_000);
  await ok(['ext', 'enable', 'svc-official.demo', '--yes']);
  await ok(['connection', 'add', 'demo', '--provider', 'svc-official.demo']);
  await ok(['workspace', 'create', 'demo']);
  await ok(['project', 'create', 'hello', '--workspace', 'demo', '--repo', repo]);
  const one = await createTask('Greet the visitor in app.js');
  const two = await createTask('Log the start in app.js');
  await ok(['task', 'start', String(one), '--connection', 'demo']);
  await ok(['task', 'start', String(two), '--connection', 'demo']);

  // Each asks its one question: the person answers task 1's from the CLI and task 2's on its board
  // card; each agent writes the answer in, commits and ends.
  await ok(['harness', 'reply', String((await openAsk(one)).id), 'Welcome, visitor']);
  await openAsk(two);
  await page.goto(`${serve.url}/board`);
  const question = page.getByRole('group', { name: `Question of task ${two}` });
  await question.getByLabel(`Your answer to task ${two}`).fill('started');
  await question.getByRole('button', { name: 'Answer' }).click();
  expect(await ended(one)).toMatchObject({ status: 'COMPLETED', outcome: 'completed' });
  expect(await ended(two)).toMatchObject({ status: 'COMPLETED', outcome: 'completed' });

  // Task 1 merged: DONE, its terminal ended, the merge commit recorded on the task.
  expect(await ok(['task', 'merge', String(one)])).toContain('merged into main');
  const mergeCommit = git(repo, 'rev-parse', 'main');
  expect(readFileSync(join(repo, 'app.js'), 'utf8')).toContain('console.log("Welcome, visitor");');
  const shownOne = await json(['task', 'show', String(one)]);
  expect(shownOne).toMatchObject({ status: 'DONE', attention: 'done', mergedCommit: mergeCommit });
  expect((await serve.api('GET', `/api/internal/terminal/${one}`)).body.terminal.state).toBe('ENDED');

  // Task 2 now conflicts with main, on every face.
  const withMain = { baseBranch: 'main', files: ['app.js'] };
  const listed = await ok(['task', 'list', '--project', 'hello']);
  expect(listed.split('\n').find((line) => line.includes('Log the start in app.js'))).toContain('conflicts with main');
  expect(await ok(['task', 'show', String(two)])).toMatch(/attention\s+conflicts with main in app\.js\n/);
  expect(await json(['task', 'show', String(two)])).toMatchObject({ attention: 'conflicts', conflictsWithBase: withMain });
  expect((await serve.api('GET', `/api/tasks/${two}`)).body).toMatchObject({ attention: 'conflicts', conflictsWithBase: withMain });
  expect(await mcp.call('get_task', { id: two })).toMatchObject({ attention: 'conflicts', conflictsWithBase: withMain });
  expect(await ok(['task', 'worktree', String(two)])).toContain('conflicts with main in app.js');
  expect(await ok(['status'])).toMatch(new RegExp(`#${two} .*conflicts with main in app\\.js`));

  // On the web: the board's Conflicts group holds task 2's card, saying with what; task 1's review
  // shows the merge commit; task 2's page and review say it conflicts with main.
  await page.goto(`${serve.url}/board`);
  const card = page.getByRole('region', { name: 'Conflicts' }).getByRole('article', { name: `Task ${two}: Log the start in app.js` });
  await card.getByText('Conflicts with main in app.js').waitFor();
  await page.goto(`${serve.url}/tasks/${one}`);
  const review = page.getByRole('region', { name: 'Review' });
  await review.getByText(`Merged as ${mergeCommit.slice(0, 12)} into main`).waitFor();
  await page.goto(`${serve.url}/tasks/${two}`);
  await review.getByText('Conflicts with main in app.js').waitFor();
  await page.getByRole('region', { name: `Task ${two}` }).getByTestId('attention').getByText('Conflicts with main').waitFor();

  // A .env written by hand in task 2's worktree (ignored by git): only the worktree holds it.
  const worktree = (await json(['task', 'worktree', String(two)])).worktree.worktreePath as string;
  const env = join(worktree, '.env');
  const envBytes = Buffer.from('API_KEY=typed by hand\r\nDEBUG=1\n\u00e9\n');
  writeFileSync(env, envBytes);
  expect(git(worktree, 'status', '--porcelain')).toBe('');

  // The CLI without --force lists it, refuses, and removes nothing.
  const refused = await svc.run(['task', 'discard', String(two)], { timeoutMs: 60_000 });
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain(`task ${two}'s worktree holds 1 file nothing else has:\n  .env (ignored by git)\nnothing removed; repeat with --force`);
  // Committing pending changes would not keep a file git ignores: the refusal does not offer it.
  expect(refused.stderr).not.toContain('--commit-pending');
  expect(readFileSync(env).equals(envBytes)).toBe(true);
  expect((await json(['task', 'show', String(two)])).status).toBe('IN_PROGRESS');

  // The web dialog lists it; Cancel changes nothing.
  await review.getByRole('button', { name: 'Discard worktree…', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Discard the worktree' });
  expect(await dialog.getByRole('list', { name: 'Files only the worktree holds' }).textContent()).toContain('.env — ignored by git');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  expect(readFileSync(env).equals(envBytes)).toBe(true);
  expect((await json(['task', 'show', String(two)])).status).toBe('IN_PROGRESS');

  // Confirmed, it is removed (archived); restore brings the worktree back with .env byte-identical.
  await ok(['task', 'discard', String(two), '--force']);
  expect(existsSync(worktree)).toBe(false);
  await ok(['task', 'restore', String(two)]);
  expect(readFileSync(env).equals(envBytes)).toBe(true);
  expect(git(worktree, 'log', '-1', '--format=%s')).toBe('Log the start in app.js');
}, 180_000);
