/// <reference lib="dom" />
// A task's permission requests in its view, in a real browser: the call shown exactly as the CLI
// gave it (as text), answered with the buttons, and who answered shown afterwards.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { svcOk } from '../support/qwen-demo-project.js';
import { startServe, type ServeProcess } from '../support/svc-serve.js';
import { launchBrowser, screenshot, signedInPage } from './web-browser.js';

let svc: SvcSandbox;
let serve: ServeProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  svc = createSvcSandbox();
  mkdirSync(join(svc.home, 'repo'));
  await svcOk(svc, ['workspace', 'create', 'main']);
  await svcOk(svc, ['project', 'create', 'demo', '--workspace', 'main', '--repo', join(svc.home, 'repo')]);
  serve = await startServe(svc);
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

test("a task's waiting requests are answered with the buttons; the answers say who gave them", async () => {
  const taskId = Number(/task (\d+) created/.exec(await svcOk(svc, ['task', 'create', 'Install the deps', '--project', 'demo']))![1]);
  // What a task terminal's permission hook sends when its CLI asks (it parks at once here).
  const ask = (command: string) => serve.api('POST', '/api/internal/hooks/approval', { taskId, cli: 'claude-code', toolName: 'Bash', toolInput: { command }, cwd: '/repo', waitMs: 0 });
  expect((await ask('npm install <b>left-pad</b>')).body).toMatchObject({ decision: 'deny', parked: true });
  await ask('rm -rf node_modules');

  await page.goto(`${serve.url}/tasks?workspace=1&project=1&task=${taskId}`);
  const approvals = page.getByRole('region', { name: 'Approvals' });
  await approvals.getByText('2 waiting, 0 allowed, 0 denied').waitFor();
  expect(await page.getByTestId('attention').textContent()).toMatch(/^needs you$/i);
  // The call is text: markup the agent wrote stays visible as written.
  await approvals.getByText('Command: npm install <b>left-pad</b>').waitFor();

  const first = approvals.getByRole('listitem').filter({ hasText: 'npm install' });
  await first.getByRole('button', { name: 'Allow once' }).click();
  await first.getByText(/allowed once by a person via web/).waitFor();

  const second = approvals.getByRole('listitem').filter({ hasText: 'rm -rf node_modules' });
  await second.getByRole('textbox').fill('keep the cache');
  await second.getByRole('button', { name: 'Deny' }).click();
  await second.getByText(/denied by a person via web, .*: keep the cache/).waitFor();
  await approvals.getByText('0 waiting, 1 allowed, 1 denied').waitFor();
  // The task list follows: nothing waits for you any more.
  await page.getByRole('button', { name: /Install the deps/ }).getByText(/idle/i).waitFor();
  await screenshot(page, 'task-approvals');

  const audit = JSON.parse(await svcOk(svc, ['task', 'approvals', String(taskId), '--json']));
  expect(audit.items.map((a: { answer: string; answeredVia: string }) => [a.answer, a.answeredVia])).toEqual([
    ['deny', 'web'],
    ['allow_once', 'web'],
  ]);
  // The task never ran, so the outcomes could not be typed into it; the answers stand.
  expect(audit.items.map((a: { delivery: string }) => a.delivery)).toEqual(['failed', 'failed']);
  expect(await page.getByRole('alert').count()).toBe(0);
}, 120_000);
