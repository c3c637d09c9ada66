/// <reference lib="dom" />
// The Review view of a task in its own git worktree, in a real Chromium against a real `svc serve`
// with the Qwen Code stand-in in a real PTY: the files changed and the diff, a comment made by
// clicking a line and sent into the live terminal, then the task merged from the page once asked; a
// second task then shows that it conflicts with main, its discard dialog lists the hand-edited .env
// only its worktree holds before removing it, and Restore worktree brings it back.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { commitAll, git, makeRepo, writeFiles } from '../support/git-repo.js';
import { QWEN_STAND_IN, prepareQwenDemoProject, svcOk } from '../support/qwen-demo-project.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { readTerminalUntil, startServe, type ServeProcess } from '../support/svc-serve.js';
import { launchBrowser, screenshot, signedInPage } from './web-browser.js';

let svc: SvcSandbox;
let serve: ServeProcess;
let browser: Browser;
let page: Page;
let repo: string;

const ok = (args: string[]) => svcOk(svc, args);

beforeAll(async () => {
  svc = createSvcSandbox([QWEN_STAND_IN]);
  repo = await prepareQwenDemoProject(svc);
  makeRepo(repo, { 'README.md': '# demo\n', 'src/greeting.txt': 'hello\nworld\n' });
  git(repo, 'config', 'user.name', 'Project Owner');
  git(repo, 'config', 'user.email', 'owner@example.test');
  serve = await startServe(svc, { SVC_TERMINAL_STOP_GRACE_MS: '2000', SVC_TERMINAL_INTERRUPT_MS: '300' });
  browser = await launchBrowser();
  ({ page } = await signedInPage(browser, serve, { width: 1280, height: 1000 }));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  svc?.cleanup();
});

test('a person reviews a task on its page: files, the diff, a line comment typed into its terminal, then merge once asked', async () => {
  page.setDefaultTimeout(20_000);
  const taskId = Number(/task (\d+) created/.exec(await ok(['task', 'create', 'Shout the greeting', '--project', 'demo']))![1]);
  await ok(['task', 'start', String(taskId), '--connection', 'qwen']);
  const banner = await readTerminalUntil(serve, taskId, 'qwen> ');
  const { worktree } = JSON.parse(await ok(['task', 'worktree', String(taskId), '--json']));
  writeFiles(worktree.worktreePath, { 'src/greeting.txt': 'HELLO\nworld\n' });
  commitAll(worktree.worktreePath, 'shout');
  writeFiles(worktree.worktreePath, { 'src/farewell.txt': 'bye\n' });

  await page.goto(`${serve.url}/tasks?workspace=1&project=1&task=${taskId}`);
  const review = page.getByRole('region', { name: 'Review' });
  const files = review.getByRole('table', { name: 'Files changed' });
  await files.waitFor();
  expect(await files.locator('tbody tr').allTextContents()).toEqual(['src/farewell.txtadded+1 −0', 'src/greeting.txtmodified+1 −1']);
  expect(await review.textContent()).toContain(`svc/${taskId}-shout-the-greeting against main`);
  expect(await review.getByText('uncommitted changes').count()).toBe(1);
  // One block per file, the new line marked as inserted.
  expect(await review.locator('.diff-file').count()).toBe(2);
  const inserted = review.getByRole('region', { name: 'Changes to src/greeting.txt' }).locator('tr.line.insert', { hasText: 'HELLO' });
  await inserted.click();
  const form = page.getByRole('form', { name: 'New comment' });
  expect(await form.textContent()).toContain('src/greeting.txt:1');
  await form.getByRole('textbox').fill('Keep the greeting lower case');
  await form.getByRole('button', { name: 'Add to review' }).click();
  expect(await review.getByRole('list', { name: 'Pending comments' }).textContent()).toContain('src/greeting.txt:1 Keep the greeting lower case');

  await review.getByRole('button', { name: 'Submit review (1)' }).click();
  await review.getByText("1 comment sent to the task's terminal as one message.").waitFor().catch(async (error) => {
    throw new Error(`${error}\n${await review.textContent()}`);
  });
  const typed = await readTerminalUntil(serve, taskId, 'Keep the greeting lower case', banner.cursor);
  expect(typed.data).toContain('src/greeting.txt:1: Keep the greeting lower case');
  expect(await review.getByRole('list', { name: 'Pending comments' }).count()).toBe(0);

  // Merge says what it does and asks first. It ends the task's work: refused while the task runs
  // until the person ticks the box to stop it, and refused with the uncommitted file until they tick
  // the box to commit it first; each refusal names the page's own control, never a CLI flag.
  const alert = review.getByRole('alert');
  const dialog = page.getByRole('dialog', { name: 'Merge' });
  await review.getByRole('button', { name: 'Merge…', exact: true }).click();
  expect(await dialog.textContent()).toContain('The worktree has uncommitted changes');
  await dialog.getByRole('button', { name: 'Merge', exact: true }).click();
  await alert.getByText('task_still_running').waitFor();
  expect(await alert.textContent()).toContain('Tick “Stop the task if it is still running”');
  await review.getByRole('button', { name: 'Merge…', exact: true }).click();
  await dialog.getByLabel('Stop the task if it is still running').check();
  await dialog.getByRole('button', { name: 'Merge', exact: true }).click();
  await alert.getByText('task_has_uncommitted_changes').waitFor();
  expect(await alert.textContent()).toContain('Tick “Commit the worktree’s uncommitted changes first”');
  expect(await alert.textContent()).not.toContain('--');
  expect(git(repo, 'rev-list', '--count', 'main')).toBe('1');
  expect(JSON.parse(await ok(['task', 'show', String(taskId), '--json'])).executions[0].status).toBe('RUNNING');
  await review.getByRole('button', { name: 'Merge…', exact: true }).click();
  await dialog.getByLabel('Commit the worktree’s uncommitted changes first').check();
  await dialog.getByRole('button', { name: 'Merge', exact: true }).click();
  await review.getByText(/Merged into main as [0-9a-f]{12}\. The task was stopped\. The task is DONE\./).waitFor();
  expect(readFileSync(join(repo, 'src/greeting.txt'), 'utf8')).toBe('HELLO\nworld\n');
  expect(readFileSync(join(repo, 'src/farewell.txt'), 'utf8')).toBe('bye\n');
  // The review shows the merge commit instead of "No changes yet"; the task and its terminal ended neutrally.
  const mergeCommit = git(repo, 'rev-parse', 'main');
  await review.getByText(`Merged as ${mergeCommit.slice(0, 12)} into main`).waitFor();
  expect(await review.getByText('No changes yet').count()).toBe(0);
  const detail = page.getByRole('region', { name: `Task ${taskId}` });
  await detail.getByTestId('attention').getByText('Done').waitFor();
  expect(await detail.locator('table.grid tbody tr').first().textContent()).toContain('Stopped');
  expect(await detail.locator('table.grid tbody').textContent()).not.toMatch(/FAILED|Failed/);
}, 120_000);

test('a running task that now conflicts with main says so; the discard dialog lists the ignored .env only its worktree holds and asks to stop the task, and Restore worktree brings it back', async () => {
  page.setDefaultTimeout(20_000);
  writeFiles(repo, { '.gitignore': '.env\n' });
  commitAll(repo, 'ignore .env');
  const taskId = Number(/task (\d+) created/.exec(await ok(['task', 'create', 'Greet quietly', '--project', 'demo']))![1]);
  const { worktree } = JSON.parse(await ok(['task', 'worktree', String(taskId), '--create', '--json']));
  writeFiles(worktree.worktreePath, { 'src/greeting.txt': 'hello there\nworld\n' });
  commitAll(worktree.worktreePath, 'quietly');
  // Meanwhile main moves on the same line.
  writeFiles(repo, { 'src/greeting.txt': 'HOWDY\nworld\n' });
  commitAll(repo, 'howdy');
  const env = join(worktree.worktreePath, '.env');
  writeFiles(worktree.worktreePath, { '.env': 'API_KEY=typed by hand\n' });
  await ok(['task', 'start', String(taskId), '--connection', 'qwen']);
  await readTerminalUntil(serve, taskId, 'qwen> ');

  await page.goto(`${serve.url}/tasks?workspace=1&project=1&task=${taskId}`);
  const review = page.getByRole('region', { name: 'Review' });
  await review.getByText('Conflicts with main in src/greeting.txt').waitFor();

  await review.getByRole('button', { name: 'Discard worktree…', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Discard the worktree' });
  const held = dialog.getByRole('list', { name: 'Files only the worktree holds' });
  expect(await held.textContent()).toContain('.env — ignored by git');
  expect(await dialog.textContent()).not.toContain('--');
  expect(await dialog.textContent()).toContain('The task is still running: tick the box to stop it first');
  // The one dialog also carries the lifecycle's boxes; nothing to commit, so no box for that.
  expect(await dialog.getByLabel('Keep the task open').count()).toBe(1);
  expect(await dialog.getByLabel('Commit the worktree’s uncommitted changes first').count()).toBe(0);
  await screenshot(page, 'review-discard-dialog');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(readFileSync(env, 'utf8')).toBe('API_KEY=typed by hand\n');

  // Confirmed without the box, the running task refuses and nothing is removed; with it, the task
  // is stopped and the worktree archived.
  await review.getByRole('button', { name: 'Discard worktree…', exact: true }).click();
  await dialog.getByRole('button', { name: 'Discard worktree', exact: true }).click();
  await review.getByRole('alert').getByText('task_still_running').waitFor();
  expect(readFileSync(env, 'utf8')).toBe('API_KEY=typed by hand\n');
  await review.getByRole('button', { name: 'Discard worktree…', exact: true }).click();
  await dialog.getByLabel('Stop the task if it is still running').check();
  await dialog.getByRole('button', { name: 'Discard worktree', exact: true }).click();
  await review.getByText(/Worktree removed and archived for 7 days \(Restore worktree brings it back\)\. The task was stopped\./).waitFor();
  expect(existsSync(env)).toBe(false);

  await review.getByRole('button', { name: 'Restore worktree' }).click();
  await review.getByText(/Worktree restored as it was/).waitFor();
  expect(readFileSync(env, 'utf8')).toBe('API_KEY=typed by hand\n');
}, 120_000);
