/// <reference lib="dom" />
// The board, in a real Chromium at 1440 and 390 px against one real `svc serve`, with two tasks of the
// demo agent shipped with svc (no AI account): each card moves group live as its task changes, with
// no reload; a question answered on its card (a button on the laptop, typed on the phone) reaches
// the task's terminal; a pending review of two line comments reaches the agent as one message; the
// task merges from its review after the page said what the merge does; at 390 px no page scrolls
// sideways; the keys move, reply and open. `svc status` prints the same groups.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { git, makeRepo } from '../support/git-repo.js';
import { svcOk } from '../support/qwen-demo-project.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { readTerminalUntil, startServe, type ServeProcess } from '../support/svc-serve.js';
import { until } from '../support/until.js';
import { launchBrowser, screenshot, signedInPage } from './web-browser.js';

let svc: SvcSandbox;
let serve: ServeProcess;
let browser: Browser;
let laptop: Page;
let phone: Page;
let repo: string;

const ok = (args: string[]) => svcOk(svc, args);
const json = async (args: string[]) => JSON.parse(await ok([...args, '--json']));

beforeAll(async () => {
  svc = createSvcSandbox();
  repo = makeRepo(join(svc.home, 'hello'), { 'app.js': 'console.log("hello");\n' });
  git(repo, 'config', 'user.name', 'Project Owner');
  git(repo, 'config', 'user.email', 'owner@example.test');
  serve = await startServe(svc);
  await ok(['ext', 'enable', 'svc-official.demo', '--yes']);
  await ok(['connection', 'add', 'demo', '--provider', 'svc-official.demo']);
  await ok(['workspace', 'create', 'play']);
  await ok(['project', 'create', 'hello', '--workspace', 'play', '--repo', repo]);
  await ok(['task', 'create', 'Say hello in app.js', '--project', 'hello']);
  await ok(['task', 'create', 'Write a changelog', '--project', 'hello']);
  browser = await launchBrowser();
  ({ page: laptop } = await signedInPage(browser, serve, { width: 1440, height: 900 }));
  ({ page: phone } = await signedInPage(browser, serve, { width: 390, height: 844 }));
  laptop.setDefaultTimeout(30_000);
  phone.setDefaultTimeout(30_000);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  svc?.cleanup();
});

/** The board group a task's card is in, once it is `group`. */
const cardIn = (page: Page, taskId: number, group: string) =>
  page.waitForFunction(
    ({ taskId, group }) => document.querySelector(`[data-task="${taskId}"]`)?.closest('.board-group')?.getAttribute('aria-label') === group,
    { taskId, group },
  );

/** The page still is the one loaded at first: a card moved without a reload. */
const notReloaded = async (page: Page) => expect(await page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);

/** Nothing on the page is wider than the screen. */
async function noSidewaysScroll(page: Page): Promise<void> {
  const { scroll, client, wide } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
    wide: Array.from(document.querySelectorAll('body *'))
      .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .slice(0, 3)
      .map((element) => `${element.tagName}.${element.className}`),
  }));
  expect({ scroll, wide }).toEqual({ scroll: client, wide: [] });
}

test('two demo tasks on the board at 1440 and 390 px: answered on their cards, reviewed in one message, merged, each card moving live', async () => {
  for (const page of [laptop, phone]) {
    await page.goto(`${serve.url}/board`);
    await page.getByRole('region', { name: 'Idle' }).waitFor();
    await page.evaluate(() => ((window as unknown as { loadedOnce?: boolean }).loadedOnce = true));
  }
  await ok(['task', 'start', '1', '--connection', 'demo']);
  await ok(['task', 'start', '2', '--connection', 'demo']);
  // Each asks its question: both cards move to "Needs you" on both screens.
  for (const page of [laptop, phone]) {
    await cardIn(page, 1, 'Needs you');
    await cardIn(page, 2, 'Needs you');
  }
  const card1 = laptop.getByRole('article', { name: 'Task 1: Say hello in app.js' });
  await card1.getByText('Which line should it end with?').waitFor();
  expect(await card1.textContent()).toContain('hello');
  expect(await card1.locator('.branch').textContent()).toBe('svc/1-say-hello-in-app-js');

  // The terminal's view of the same: `svc status` lists both under NEEDS YOU.
  const status = await json(['status']);
  expect(status.items.filter((card: { attention: string }) => card.attention === 'needs_you').map((card: { taskId: number }) => card.taskId).sort()).toEqual([1, 2]);
  expect(status.items.find((card: { taskId: number }) => card.taskId === 1)).toMatchObject({
    projectName: 'hello',
    workspaceName: 'play',
    branch: 'svc/1-say-hello-in-app-js',
    connection: 'demo',
    question: { options: ['Say hello in app.js: done', 'Say hello in app.js: later'] },
  });
  expect(await ok(['status'])).toMatch(/^NEEDS YOU \(2\)\n {2}#\d+ {2}hello {2}/);

  // The keys: ? lists them; j selects the first card, r goes to its answer.
  await laptop.keyboard.press('?');
  await laptop.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
  await laptop.keyboard.press('Escape');
  const order = await laptop.evaluate(() => Array.from(document.querySelectorAll('.board-card')).map((card) => card.getAttribute('data-task')));
  await laptop.keyboard.press('j');
  await laptop.keyboard.press('j');
  await laptop.keyboard.press('r');
  expect(await laptop.evaluate(() => document.activeElement?.id)).toBe(`answer-${order[1]}`);
  await laptop.locator(`#answer-${order[1]}`).blur();
  await screenshot(laptop, 'board');
  await noSidewaysScroll(phone);
  await screenshot(phone, 'board-phone');

  // Task 1 answered on the laptop with the agent's first option; the answer reaches its terminal.
  await card1.getByRole('button', { name: 'Say hello in app.js: done' }).click();
  await readTerminalUntil(serve, 1, 'Say hello in app.js: done');
  // Task 2 answered on the phone, typed.
  const card2 = phone.getByRole('article', { name: 'Task 2: Write a changelog' });
  await card2.getByRole('textbox').fill('First release');
  await card2.getByRole('button', { name: 'Answer' }).click();
  await readTerminalUntil(serve, 2, 'First release');
  // Each agent writes the answer in, commits and ends: ready for review, on both screens.
  for (const page of [laptop, phone]) {
    await cardIn(page, 1, 'Ready for review');
    await cardIn(page, 2, 'Ready for review');
  }
  expect(await card1.locator('.diffstat').textContent()).toBe('+2 −0');

  // Enter opens the selected task: its view holds the terminal and the review.
  await laptop.keyboard.press('j');
  const selected = Number(await laptop.evaluate(() => document.querySelector('.board-card.selected')?.getAttribute('data-task')));
  await laptop.keyboard.press('Enter');
  await laptop.waitForURL(new RegExp(`/tasks/${selected}$`));
  await notReloaded(laptop);
  await laptop.goto(`${serve.url}/tasks/1`);
  const review = laptop.getByRole('region', { name: 'Review' });
  const file = review.getByRole('region', { name: 'Changes to app.js' });
  await file.waitFor();
  // Removed lines red, added green: the added ones carry the added colour.
  const added = file.locator('tr.line.insert');
  expect(await added.count()).toBe(2);
  expect(await added.first().locator('td.code').evaluate((cell) => getComputedStyle(cell).backgroundColor)).toBe('rgb(230, 246, 234)');
  await screenshot(laptop, 'task');

  // Two line comments, each typed in the box that opens under its line, gathered as one review.
  for (const [index, body] of [[0, 'Name the task in the comment'], [1, 'Use a template string']] as const) {
    await added.nth(index).click();
    const form = file.getByRole('form', { name: 'New comment' });
    expect(await form.evaluate((element) => element.closest('tr')?.previousElementSibling?.classList.contains('insert'))).toBe(true);
    await form.getByRole('textbox').fill(body);
    await form.getByRole('button', { name: 'Add to review' }).click();
  }
  const pending = review.getByRole('region', { name: 'Pending review' });
  expect(await pending.getByRole('listitem').allTextContents()).toEqual(['app.js:2 Name the task in the comment', 'app.js:3 Use a template string']);
  await screenshot(laptop, 'review');
  await pending.getByRole('button', { name: 'Submit review (2)' }).click();
  await review.getByText("2 comments sent to the task's terminal as one message.").waitFor();
  // The agent reads one message holding both comments.
  const noted = await readTerminalUntil(serve, 1, 'noted your message');
  expect(noted.data).toContain('Review of your changes (task 1): 2 comments.');
  expect(noted.data).toContain('- app.js:2: Name the task in the comment');
  expect(noted.data).toContain('- app.js:3: Use a template string');
  expect(noted.data.match(/noted your message/g)).toHaveLength(1);
  await until(async () => ((await json(['task', 'show', '1'])).executions[0].status === 'COMPLETED' ? true : undefined), 60_000, 'the agent to end after the review');

  // Merge says what it will do and asks first.
  await review.getByRole('button', { name: 'Merge…', exact: true }).click();
  const dialog = laptop.getByRole('dialog', { name: 'Merge' });
  expect(await dialog.textContent()).toContain('This lands svc/1-say-hello-in-app-js on main with a merge commit: 1 file, +2 −0.');
  expect(git(repo, 'rev-list', '--count', 'main')).toBe('1');
  await dialog.getByRole('button', { name: 'Merge', exact: true }).click();
  await review.getByText(/Merged into main as [0-9a-f]{12}\. The task is DONE\./).waitFor();
  expect(readFileSync(join(repo, 'app.js'), 'utf8')).toContain('console.log("Say hello in app.js: done");');

  // The phone: the other task's view (terminal, send box, review) fits the screen.
  await phone.goto(`${serve.url}/tasks/2`);
  await phone.getByRole('region', { name: 'Changes to write-a-changelog.md' }).waitFor();
  await phone.getByTestId('terminal').waitFor();
  await noSidewaysScroll(phone);
  await screenshot(phone, 'task-phone');
  // Reverting asks first and says what it would do; cancelled, nothing changed.
  await phone.getByRole('button', { name: 'Revert file' }).click();
  const revert = phone.getByRole('dialog', { name: 'Revert in the worktree' });
  expect(await revert.textContent()).toContain('This deletes write-a-changelog.md from the worktree (the task added it).');
  await revert.getByRole('button', { name: 'Cancel' }).click();
  const worktree2 = (await json(['task', 'worktree', '2'])).worktree.worktreePath;
  expect(readFileSync(join(worktree2, 'write-a-changelog.md'), 'utf8')).toBe('# Write a changelog\n\nFirst release\n');

  // Back on the board: the merge ended task 1's work, so its card moved to "Done today".
  await phone.goto(`${serve.url}/board`);
  await cardIn(phone, 1, 'Done today');
  await cardIn(phone, 2, 'Ready for review');
  await noSidewaysScroll(phone);
  // svc serve said nothing through the journey but its start lines.
  expect(serve.child.output.stderr.split('\n').filter((line) => /^\[\w+\]/.test(line))).toEqual([]);
}, 300_000);
