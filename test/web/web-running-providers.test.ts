/// <reference lib="dom" />
// Settings → Extensions in a real browser once providers have run: the "Running providers" section
// (calls per method with latency, errors by code, permission use, the last errors) read from
// GET /api/extensions/stats, a granted permission never used marked in the installed table, and
// "update available" from the same operation as `svc ext outdated`, against an HTTPS catalog listing
// a compatible and an incompatible newer version.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeCatalogFixtureRepo, runCatalogBuild, serveCatalog, type CatalogServer } from '../support/catalog-fixture.js';
import { createSvcSandbox, waitFor, type SvcSandbox } from '../support/svc-process.js';
import { startServe, type ServeProcess } from '../support/svc-serve.js';
import { createThrowawayCa } from '../support/throwaway-https.js';
import { launchBrowser, screenshot, signedInPage } from './web-browser.js';

const ID = 'svc-test.stats-echo';
let scratch: string;
let server: CatalogServer;
let svc: SvcSandbox;
let serve: ServeProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-web-stats-'));
  await mkdir(join(scratch, 'ca'));
  const ca = createThrowawayCa(join(scratch, 'ca'));
  server = await serveCatalog(ca, join(scratch, 'out'));
  const permissions = ['process:spawn', 'config:provider'];
  await makeCatalogFixtureRepo(join(scratch, 'repo'), [
    { folder: 'stats-echo-v100', id: ID, version: '1.0.0', permissions },
    { folder: 'stats-echo-v110', id: ID, version: '1.1.0', permissions },
    { folder: 'stats-echo-v200', id: ID, version: '2.0.0', permissions, compatibility: { svc: '>=9.0.0', node: '>=20' } },
  ]);
  runCatalogBuild(join(scratch, 'repo'), server.baseUrl, join(scratch, 'out'));
  svc = createSvcSandbox();
  svc.env.NODE_EXTRA_CA_CERTS = ca.caCertFile;
  svc.env.SVC_EXTENSION_CATALOG_URL = server.baseUrl;
  expect((await svc.run(['ext', 'install', `${ID}@1.0.0`])).code).toBe(0);
  expect((await svc.run(['ext', 'enable', ID, '--yes'])).code).toBe(0);
  serve = await startServe(svc);
  browser = await launchBrowser();
  ({ page } = await signedInPage(browser, serve));
  page.setDefaultTimeout(20_000);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  await server?.close();
  svc?.cleanup();
  await rm(scratch, { recursive: true, force: true });
});

test('the page shows how the provider ran, its unused permission and the compatible update', async () => {
  for (const word of ['one', 'two']) expect((await svc.run(['query', '--provider', ID, word], { timeoutMs: 60_000 })).code).toBe(0);
  // Through the service: a call that hits its deadline (the stand-in CLI waits for a file that never comes).
  const slow = await svc.run(['query', '--provider', ID, '--timeout', '1', `wait-for ${join(scratch, 'never')}`], { timeoutMs: 60_000 });
  expect(slow.code).toBe(1);

  const api = await serve.api<{ items: Array<{ id: string; methods: Array<{ method: string; calls: number; timeouts: number }>; permissions: Array<{ permission: string; neverUsed: boolean }> }> }>('GET', `/api/extensions/stats?id=${ID}`);
  expect(api.status).toBe(200);
  expect(api.body.items[0]!.methods.find((m) => m.method === 'stream')).toMatchObject({ calls: 3, timeouts: 1 });
  expect(api.body.items[0]!.permissions).toEqual([
    { permission: 'config:provider', calls: 0, lastAt: null, neverUsed: true },
    expect.objectContaining({ permission: 'process:spawn', neverUsed: false }),
  ]);

  await page.getByRole('link', { name: 'Extensions' }).click();
  const card = page.locator(`[data-stats="${ID}"]`);
  await card.waitFor();
  const stream = card.locator('tr[data-method="stream"]');
  expect((await stream.locator('td').allTextContents()).slice(0, 5)).toEqual(['3', '1', '0', '1', '0']);
  expect(await card.locator('.activation').textContent()).toMatch(/Activation: [\d.]+ ms last/);
  expect(await card.locator('.errors-by-code').textContent()).toContain('timeout × 1');
  expect(await card.locator('.permission-use .perm.unused').textContent()).toBe('config:provider (never used)');
  await card.locator('.recent-errors summary').click();
  expect(await card.locator('.recent-errors li').first().textContent()).toContain('timeout');

  const row = page.locator(`tr[data-extension="${ID}"]`);
  await waitFor(async () => (await row.locator('.update-available').count()) === 1, 20_000, 'update available');
  expect(await row.locator('.update-available').textContent()).toBe('update available 1.1.0');
  expect(await row.textContent()).toContain('2.0.0 needs svc >=9.0.0');
  expect(await row.locator('.perm.unused').textContent()).toBe('config:provider (never used)');
  await screenshot(page, 'extensions-running');
});
