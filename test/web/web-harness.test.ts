/// <reference lib="dom" />
// The notification center and Settings → Notifications in a real browser: a question a task asks
// appears in /harness without a reload, is answered inline, and the reply is typed into the same
// live terminal; a channel is configured on the page for a gateway set up on this machine.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSvcSandbox, REPO_ROOT, waitFor, type SvcSandbox } from '../support/svc-process.js';
import { QWEN_STAND_IN, prepareQwenDemoProject, svcOk } from '../support/qwen-demo-project.js';
import { connectSvcMcp } from '../support/svc-mcp-client.js';
import { readTerminalUntil, startServe, type ServeProcess } from '../support/svc-serve.js';
import { taskTerminalMcpEnv } from '../support/task-terminal-mcp-env.js';
import { launchBrowser, screenshot, signedInPage } from './web-browser.js';

const HERMES_STAND_IN = join(REPO_ROOT, 'test/fake-clis/hermes/hermes');

let svc: SvcSandbox;
let serve: ServeProcess;
let browser: Browser;
let page: Page;

const ok = (args: string[]) => svcOk(svc, args);

const readUntil = (taskId: number, text: string, cursor = 0) => readTerminalUntil(serve, taskId, text, cursor);

beforeAll(async () => {
  svc = createSvcSandbox([QWEN_STAND_IN]);
  await prepareQwenDemoProject(svc);
  serve = await startServe(svc, { SVC_TERMINAL_STOP_GRACE_MS: '2000', SVC_TERMINAL_INTERRUPT_MS: '300' });
  browser = await launchBrowser();
  ({ page } = await signedInPage(browser, serve));
  page.setDefaultTimeout(20_000);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  svc?.cleanup();
});

test('an empty notification center says where messages will come from', async () => {
  await page.getByRole('link', { name: 'Notification center' }).click();
  await page.getByText('No messages yet').waitFor();
  expect(await page.getByRole('heading', { name: 'Notification center', level: 1 }).count()).toBe(1);
});

test('a question from a task terminal appears live, is answered inline, and the task resumes in the same terminal', async () => {
  const taskId = Number(/task (\d+) created/.exec(await ok(['task', 'create', 'Pick a database', '--project', 'demo']))![1]);
  await ok(['task', 'start', String(taskId), '--connection', 'qwen']);
  const banner = await readUntil(taskId, 'qwen> ');
  await page.goto(`${serve.url}/harness`);
  await page.getByText('No messages yet').waitFor();
  // The live stream is open once the page has loaded its data (its first request after the stream opened).
  await page.waitForLoadState('networkidle').catch(() => undefined);

  // The task terminal's agent asks through `svc mcp` with the terminal's wiring (profile task, its
  // task proven by the execution's credential), which forwards ask_human to the service over the
  // localhost bridge.
  const [running] = JSON.parse(await ok(['task', 'show', String(taskId), '--json'])).executions as { pid: number }[];
  const mcp = await connectSvcMcp(svc, taskTerminalMcpEnv(running!.pid));
  const asked = { body: await mcp.call<{ messageId: number; status: string }>('ask_human', { question: 'Which database should the service use?\nsqlite or postgres?' }) };
  await mcp.close();
  expect(asked.body.status).toBe('OPEN');
  const row = page.locator(`tr[data-message="${asked.body.messageId}"]`);
  await row.waitFor();
  expect(await row.locator('.status').textContent()).toBe('OPEN');
  expect(await row.textContent()).toContain('Pick a database');
  await screenshot(page, 'harness');

  await row.getByRole('button', { name: 'Reply' }).click();
  const dialog = page.getByRole('dialog');
  expect(await dialog.locator('.bubble').first().textContent()).toContain('Which database should the service use?');
  await dialog.getByLabel(/Your reply/).fill('use postgres');
  await screenshot(page, 'harness-reply-dialog');
  await dialog.getByRole('button', { name: 'Send reply and resume the task' }).click();
  await dialog.getByRole('status').waitFor();
  expect(await dialog.getByRole('status').textContent()).toMatch(/typed|running|terminal/i);

  const echoed = await readUntil(taskId, 'You said: ', banner.cursor);
  expect(echoed.data).toContain('use postgres');
  const shown = JSON.parse(await ok(['harness', 'show', String(asked.body.messageId), '--json']));
  expect(shown).toMatchObject({ status: 'ANSWERED', ask: { reply: 'use postgres', repliedVia: 'web', resumeOutcome: 'already_running' } });
  await page.keyboard.press('Escape');
  await waitFor(async () => (await row.locator('.status').textContent()) === 'ANSWERED', 10_000, 'the row answered');
  expect(await row.textContent()).toContain('use postgres');
  await ok(['task', 'stop', String(taskId)]);
}, 120_000);

test('a channel is configured on the page for a gateway set up on this machine, with its health shown', async () => {
  await ok(['gateway', 'add', 'hermes', '--kind', 'hermes', '--command', HERMES_STAND_IN]);
  await page.getByRole('link', { name: 'Notifications', exact: true }).click();
  const gateway = page.locator('tr[data-gateway="hermes"]');
  await gateway.waitFor();
  await waitFor(async () => (await gateway.textContent())?.includes('reachable'), 15_000, 'the health line');
  expect(await gateway.locator('.pill').textContent()).toMatch(/^reachable/);

  const form = page.getByRole('form', { name: 'Add a channel' });
  await form.getByLabel('Name', { exact: true }).fill('owner-telegram');
  await form.getByLabel('Platform', { exact: true }).fill('telegram');
  await form.getByLabel(/Home target/).fill('4242');
  await form.getByLabel(/Owner identity/).fill('4242');
  await form.getByLabel(/Trusted groups/).fill('-100777, -100888');
  await form.getByLabel('Scope').selectOption({ label: 'project demo' });
  await form.getByRole('button', { name: 'Add channel' }).click();
  const channel = page.locator('tr[data-channel="owner-telegram"]');
  await channel.waitFor();
  expect(await channel.textContent()).toContain('-100777, -100888');
  expect(await channel.textContent()).toContain('project demo');
  await screenshot(page, 'notifications');

  await channel.getByRole('button', { name: 'Deactivate' }).click();
  await waitFor(async () => (await channel.textContent())?.includes('Activate'), 10_000, 'the channel inactive');
  const listed = JSON.parse(await ok(['channel', 'list', '--json']));
  expect(listed).toEqual([expect.objectContaining({ name: 'owner-telegram', platform: 'telegram', ownerId: '4242', trustedGroups: ['-100777', '-100888'], active: false })]);
});
