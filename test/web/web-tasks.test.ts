/// <reference lib="dom" />
// The Tasks and Connections pages in a real browser against a real `svc serve`: workspaces,
// projects and tasks made on the page, a task started with a stand-in CLI in a real PTY, its live
// terminal streaming output and taking keystrokes, stop and resume.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, onTestFinished, test } from 'vitest';
import { copyFixtureProvider } from '../support/copy-fixture-provider.js';
import { makeRepo } from '../support/git-repo.js';
import { createSvcSandbox, waitFor, type SvcSandbox } from '../support/svc-process.js';
import { apiOk, readTerminalUntil, startServe, type ServeProcess } from '../support/svc-serve.js';
import { launchBrowser, screenshot, signedInPage } from './web-browser.js';

let svc: SvcSandbox;
let serve: ServeProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let repo: string;

async function ok(args: string[]): Promise<string> {
  const result = await svc.run(args, { timeoutMs: 60_000 });
  if (result.code !== 0) throw new Error(`svc ${args.join(' ')} failed\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

beforeAll(async () => {
  svc = createSvcSandbox();
  repo = join(svc.home, 'repo');
  mkdirSync(repo);
  await ok(['ext', 'dev', 'add', copyFixtureProvider('echo')]);
  await ok(['ext', 'enable', 'svc-test.echo', '--yes']);
  serve = await startServe(svc, { SVC_TERMINAL_STOP_GRACE_MS: '2000', SVC_TERMINAL_INTERRUPT_MS: '300' });
  browser = await launchBrowser();
  ({ context, page } = await signedInPage(browser, serve));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  svc?.cleanup();
});

test('an empty service tells a person what to do first', async () => {
  await page.goto(`${serve.url}/tasks`);
  await page.getByText('No workspaces yet').waitFor();
  expect(await page.getByText('Choose a workspace').count()).toBe(1);
});

test('connections are added on the page with a write-only secret', async () => {
  await page.getByRole('link', { name: 'Connections' }).click();
  const form = page.getByRole('form', { name: 'Add a connection' });
  await form.getByLabel('Name').fill('echo');
  await form.getByLabel('Provider').selectOption('svc-test.echo');
  await form.getByLabel('Settings').fill('apiKey=sk-web-secret-123456');
  await form.getByRole('button', { name: 'Add connection' }).click();
  const row = page.locator('tr[data-connection="echo"]');
  await row.waitFor();
  expect(await row.textContent()).toContain('set (hidden)');
  expect(await page.content()).not.toContain('sk-web-secret-123456');
  const listed = await serve.api<{ items: Array<{ name: string; config: Record<string, unknown> }> }>('GET', '/api/connections');
  expect(listed.body.items.find((c) => c.name === 'echo')?.config.apiKey).toBe('********');
  await screenshot(page, 'connections');
});

test('a workspace, a project and a task are made on the page; the task runs in a live terminal that takes input', async () => {
  page.setDefaultTimeout(15_000);
  await page.getByRole('link', { name: 'Projects' }).click();
  await page.getByLabel('New workspace').fill('Acme');
  await page.getByLabel('New workspace').press('Enter');
  await page.getByRole('button', { name: 'Acme' }).click();
  await page.getByLabel('Project name').fill('web');
  await page.getByLabel('Repository folder on this machine').fill(repo);
  await page.getByRole('button', { name: 'Add project' }).click();
  await page.getByRole('button', { name: /^web/ }).click();
  await page.getByLabel('New task').fill('Fix the login bug');
  await page.getByLabel('New task').press('Enter');
  await page.getByRole('button', { name: /Fix the login bug/ }).click();

  await page.getByRole('button', { name: 'Start' }).click();
  const terminal = page.getByTestId('terminal');
  await waitFor(async () => (await page.locator('.xterm-rows').textContent())?.includes('echo-cli interactive'), 20_000, 'the CLI banner in the browser terminal');
  await terminal.click();
  await page.keyboard.type('hello from the browser');
  await page.keyboard.press('Enter');
  const rows = page.locator('.xterm-rows');
  await waitFor(async () => (await rows.textContent())?.includes('echo: hello from the browser'), 10_000, 'the echoed line on screen');
  // The status line may still be catching up with the screen (a re-render after the task list refreshed).
  const status = page.locator('.terminal-status .pill');
  await waitFor(async () => (await status.textContent()) === 'live', 10_000, 'the terminal status "live"').catch(async (error: Error) => {
    throw new Error(`${error.message}; it reads "${await status.textContent()}"`);
  });
  expect(await page.locator('.pill.live').count()).toBe(1);
  await screenshot(page, 'tasks');

  // The same terminal, read through the API the CLI uses: the keystrokes reached the PTY.
  const tasks = await serve.api<{ items: Array<{ id: number; title: string }> }>('GET', '/api/tasks');
  const task = tasks.body.items.find((t) => t.title === 'Fix the login bug')!;
  const buffer = await serve.api<{ data: string }>('GET', `/api/internal/terminal/${task.id}/buffer?cursor=0`);
  expect(buffer.body.data).toContain('echo: hello from the browser');

  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await page.getByRole('button', { name: 'Resume' }).waitFor({ timeout: 20_000 });
  expect(await page.locator('table.grid tbody tr').count()).toBeGreaterThanOrEqual(1);
  // A person's Stop is not a failure; the ended terminal says so and keeps what it printed, also
  // when the page is opened afresh.
  await waitFor(async () => (await page.locator('table.grid tbody tr').first().textContent())?.includes('Stopped'), 10_000, 'the execution shown as Stopped');
  expect(await page.locator('table.grid tbody').textContent()).not.toMatch(/FAILED|Failed/);
  await page.reload();
  await waitFor(async () => (await page.locator('.terminal-status .pill').textContent()) === 'ended', 10_000, 'the terminal status "ended"').catch(async (error: Error) => {
    throw new Error(`${error.message}; it reads "${await page.locator('.terminal-status .pill').textContent()}"`);
  });
  await waitFor(async () => (await page.locator('.xterm-rows').textContent())?.includes('echo: hello from the browser'), 10_000, 'the scrollback of the ended terminal');
  expect(await page.locator('.pill.error').count()).toBe(0);
}, 90_000);

test('"Stop all agents" asks how many it stops, then ends every running task as stopped, not failed; the install token cannot call it', async () => {
  page.setDefaultTimeout(15_000);
  const workspace = await apiOk<{ id: number }>(serve, 'POST', '/api/workspaces', { name: 'Night shift' });
  const project = await apiOk<{ id: number }>(serve, 'POST', '/api/projects', { workspaceId: workspace.id, name: 'night', repoPath: repo });
  await apiOk(serve, 'POST', '/api/connections', { name: 'echo-night', providerId: 'svc-test.echo', settings: { apiKey: 'sk-night-123456' } });
  const tasks: number[] = [];
  for (const title of ['Agent one', 'Agent two']) {
    const task = await apiOk<{ id: number }>(serve, 'POST', '/api/tasks', { projectId: project.id, title });
    await apiOk(serve, 'POST', `/api/internal/terminal/${task.id}/start`, { connection: 'echo-night' });
    await readTerminalUntil(serve, task.id, 'echo-cli interactive');
    tasks.push(task.id);
  }
  const live = async () => (await apiOk<{ items: Array<{ state: string }> }>(serve, 'GET', '/api/internal/terminal')).items.filter((t) => t.state !== 'ENDED').length;
  expect(await live()).toBe(2);

  // Not an API call: a local client with the install token (an agent could read it) is refused, and nothing stops.
  const refused = await serve.api('POST', '/api/web/terminals/stop-all', {});
  expect(refused.status).toBe(403);
  expect(refused.body.error.code).toBe('forbidden');
  expect(await live()).toBe(2);

  await page.goto(`${serve.url}/board`);
  await page.getByRole('button', { name: 'Stop all agents (2)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop all agents' });
  expect(await dialog.textContent()).toContain('This stops 2 agents now');
  // Cancel changes nothing.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(await live()).toBe(2);
  await page.getByRole('button', { name: 'Stop all agents (2)' }).click();
  await page.getByRole('dialog', { name: 'Stop all agents' }).getByRole('button', { name: 'Stop 2 agents' }).click();
  await page.getByRole('button', { name: /Stop all agents/ }).waitFor({ state: 'detached', timeout: 20_000 });
  expect(await live()).toBe(0);
  for (const taskId of tasks) {
    const [execution] = (await apiOk<{ items: Array<{ status: string; outcome: string; endReason: string }> }>(serve, 'GET', `/api/executions?taskId=${taskId}`)).items;
    expect(execution).toMatchObject({ status: 'COMPLETED', outcome: 'stopped', endReason: 'stopped' });
  }
  await page.goto(`${serve.url}/tasks/${tasks[0]}`);
  await waitFor(async () => (await page.locator('table.grid tbody tr').first().textContent())?.includes('Stopped'), 10_000, 'the execution shown as Stopped');
  expect(await page.locator('table.grid tbody').textContent()).not.toMatch(/FAILED|Failed/);
}, 90_000);

/**
 * A task of a new project (`name`) whose start is under way, waiting in its worktree's set-up command
 * until the test writes `go` (written when the test ends, on failure too).
 */
async function startWaitingInSetUp(name: string) {
  const gitRepo = makeRepo(join(svc.home, `${name}-repo`));
  const began = join(svc.home, `${name}-set-up-began`);
  const go = join(svc.home, `${name}-set-up-go`);
  onTestFinished(() => writeFileSync(go, ''));
  const workspace = await apiOk<{ id: number }>(serve, 'POST', '/api/workspaces', { name: `${name} starts` });
  const project = await apiOk<{ id: number }>(serve, 'POST', '/api/projects', { workspaceId: workspace.id, name, repoPath: gitRepo });
  const setupCommand = `touch '${began}'; i=0; while [ ! -f '${go}' ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done`;
  await apiOk(serve, 'PUT', `/api/projects/${project.id}/isolation`, { isolation: 'worktree', setupCommand });
  await apiOk(serve, 'POST', '/api/connections', { name: `echo-${name}`, providerId: 'svc-test.echo', settings: { apiKey: `sk-${name}-123456` } });
  const task = await apiOk<{ id: number }>(serve, 'POST', '/api/tasks', { projectId: project.id, title: `${name} agent` });
  const started = serve.api('POST', `/api/internal/terminal/${task.id}/start`, { connection: `echo-${name}` }).catch((error: unknown) => ({ status: 0, body: String(error) }));
  await waitFor(() => existsSync(began), 30_000, 'the set-up command to begin');
  return { task, started, go };
}

test('"Stop all agents" counts a terminal still starting, and stops it once it is up', async () => {
  page.setDefaultTimeout(15_000);
  const { task, started, go } = await startWaitingInSetUp('slow');

  // The count is the page's too: the install token is refused.
  expect((await serve.api('GET', '/api/web/terminals/stop-all')).status).toBe(403);
  await page.goto(`${serve.url}/board`);
  await page.getByRole('button', { name: 'Stop all agents (1)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop all agents' });
  expect(await dialog.textContent()).toContain('This stops 1 agent now');
  await dialog.getByRole('button', { name: 'Stop 1 agent' }).click();
  // Stopped as soon as it is up.
  writeFileSync(go, '');
  expect((await started).status).toBe(201);
  await page.getByRole('button', { name: /Stop all agents/ }).waitFor({ state: 'detached', timeout: 20_000 });
  const [execution] = (await apiOk<{ items: Array<{ status: string; outcome: string; endReason: string }> }>(serve, 'GET', `/api/executions?taskId=${task.id}`)).items;
  expect(execution).toMatchObject({ status: 'COMPLETED', outcome: 'stopped', endReason: 'stopped' });
}, 90_000);

test('"Stop all agents" waits 5 seconds for a start still under way, then calls it off and says so in its dialog', async () => {
  page.setDefaultTimeout(15_000);
  const { task, started, go } = await startWaitingInSetUp('stuck');

  await page.goto(`${serve.url}/board`);
  await page.getByRole('button', { name: 'Stop all agents (1)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop all agents' });
  await dialog.getByRole('button', { name: 'Stop 1 agent' }).click();
  // The set-up command is still waiting when Stop all stops waiting for it.
  const note = dialog.getByRole('status');
  await note.waitFor({ timeout: 30_000 });
  expect(await note.textContent()).toBe(
    `The agent of task ${task.id} was still starting after 5 seconds, so its start was called off: its CLI did not start. Start the task again when you want it to run.`,
  );
  // A start called off is no agent to stop any more, though its set-up command still runs.
  await dialog.getByRole('button', { name: 'OK' }).click();
  await page.getByRole('button', { name: /Stop all agents/ }).waitFor({ state: 'detached', timeout: 20_000 });
  writeFileSync(go, '');
  const answer = await started;
  expect(answer.status).toBe(409);
  expect((answer.body as { error: { code: string } }).error.code).toBe('cancelled');
  expect((await apiOk<{ items: unknown[] }>(serve, 'GET', `/api/executions?taskId=${task.id}`)).items).toEqual([]);
}, 90_000);

test('the page reads at a narrow width', async () => {
  const narrow = await browser.newContext({ viewport: { width: 480, height: 900 }, storageState: await context.storageState() });
  const small = await narrow.newPage();
  await small.goto(`${serve.url}/tasks`);
  const overflow = await small.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await narrow.close();
});
