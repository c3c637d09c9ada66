/// <reference lib="dom" />
// Settings → MCP tokens in a real browser against a real `svc serve`: the tokens made with
// `svc mcp token create` are listed (never the token) and revoked; the revoked token's client is
// refused over /mcp from its next request.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { postMcp } from '../support/svc-mcp-http-client.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { startServe, type ServeProcess } from '../support/svc-serve.js';
import { launchBrowser, signedInPage } from './web-browser.js';

let svc: SvcSandbox;
let serve: ServeProcess;
let browser: Browser;
let page: Page;
let secret: string;

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'phone', version: '1' } } });

beforeAll(async () => {
  svc = createSvcSandbox();
  const created = await svc.run(['mcp', 'token', 'create', 'phone', '--profile', 'assistant', '--expires', '30d']);
  if (created.code !== 0) throw new Error(created.stderr);
  secret = created.stdout.trim();
  serve = await startServe(svc);
  browser = await launchBrowser();
  ({ page } = await signedInPage(browser, serve));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  svc?.cleanup();
});

test('the MCP tokens page lists a token without showing it, and revoking it there refuses its client', async () => {
  page.setDefaultTimeout(15_000);
  expect((await postMcp(serve.url, INITIALIZE, { authorization: `Bearer ${secret}` })).status).toBe(200);
  await page.goto(`${serve.url}/tasks`);
  await page.getByRole('link', { name: 'MCP tokens' }).click();
  const row = page.locator('tr[data-mcp-token="phone"]');
  await row.waitFor();
  expect(await row.textContent()).toContain('assistant');
  expect(await row.textContent()).toContain('active');
  expect(await page.content()).not.toContain(secret);
  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: 'Revoke' }).click();
  await page.locator('tr[data-mcp-token="phone"]', { hasText: 'revoked' }).waitFor();
  const refused = await postMcp(serve.url, INITIALIZE, { authorization: `Bearer ${secret}` });
  expect([refused.status, refused.body.error.data.code]).toEqual([401, 'mcp_token_revoked']);
});
