/// <reference lib="dom" />
// Settings → Extensions in a real browser: install an exact version from a local HTTPS catalog,
// enable it through the permission dialog, an update asking for a new permission shown marked while
// the old version keeps serving, developer-mode registration and removal, and the catalog's signature
// line once its key is pinned (and the coded refusal of an index signed by another key).
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeCatalogFixtureRepo, publishSignedIndex, runCatalogBuild, serveCatalog, type CatalogServer } from '../support/catalog-fixture.js';
import { copyFixtureProvider } from '../support/copy-fixture-provider.js';
import { createSvcSandbox, REPO_ROOT, waitFor, type SvcSandbox } from '../support/svc-process.js';
import { startServe, type ServeProcess } from '../support/svc-serve.js';
import { createThrowawayCa } from '../support/throwaway-https.js';
import { writeCatalogKeyPair } from '@svc-org/catalog/write-catalog-key-pair';
import { launchBrowser, screenshot, signedInPage } from './web-browser.js';

const ID = 'svc-test.web-echo';
let scratch: string;
let server: CatalogServer;
let svc: SvcSandbox;
let serve: ServeProcess;
let browser: Browser;
let page: Page;

async function query(prompt: string): Promise<string> {
  const result = await svc.run(['query', '--provider', ID, prompt], { timeoutMs: 60_000 });
  if (result.code !== 0) throw new Error(`query failed\n${result.stdout}\n${result.stderr}`);
  return result.stdout.trim();
}

function row(id: string) {
  return page.locator(`tr[data-extension="${id}"]`);
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-web-ext-'));
  await mkdir(join(scratch, 'ca'));
  const ca = createThrowawayCa(join(scratch, 'ca'));
  server = await serveCatalog(ca, join(scratch, 'out'));
  await makeCatalogFixtureRepo(join(scratch, 'repo'), [
    { folder: 'web-echo-v100', id: ID, version: '1.0.0', permissions: ['process:spawn'] },
    { folder: 'web-echo-v200', id: ID, version: '2.0.0', permissions: ['process:spawn', 'network:provider'] },
  ]);
  runCatalogBuild(join(scratch, 'repo'), server.baseUrl, join(scratch, 'out'));
  // The stand-in `claude` on PATH: a provider for Claude Code is found (nothing runs it before consent).
  svc = createSvcSandbox([join(REPO_ROOT, 'test/fake-clis/claude-code')]);
  svc.env.NODE_EXTRA_CA_CERTS = ca.caCertFile;
  svc.env.SVC_EXTENSION_CATALOG_URL = server.baseUrl;
  serve = await startServe(svc);
  browser = await launchBrowser();
  ({ page } = await signedInPage(browser, serve));
  page.setDefaultTimeout(20_000);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  await server?.close();
  svc?.cleanup();
  await rm(scratch, { recursive: true, force: true });
});

test('an exact catalog version is installed from the page and enabled through the permission dialog', async () => {
  await page.getByRole('link', { name: 'Extensions' }).click();
  const card = page.locator(`[data-catalog="${ID}"]`);
  expect(await page.locator('.catalog-signature').textContent()).toContain('Unsigned: no catalog key is pinned');
  await card.getByRole('button', { name: 'Install 1.0.0' }).click();
  await row(ID).waitFor();
  await waitFor(async () => (await row(ID).textContent())?.includes('disabled'), 10_000, 'the installed provider, disabled');

  await row(ID).getByRole('button', { name: 'Enable…' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText('process:spawn', { exact: true }).waitFor();
  expect(await dialog.textContent()).toContain('start the CLI and other programs');
  // The exact probe that runs after consent, the mode it will run in, and the server's own notice.
  const probe = await serve.api<{ cli: { probe: { command: string; args: string[] } }; isolation: { mode: string; runsAs: string }; notice: string[] }>('GET', `/api/extensions/${ID}/permissions`);
  expect(probe.body.cli.probe.args.length).toBeGreaterThan(0);
  expect(await dialog.locator('.cli-probe').textContent()).toContain([probe.body.cli.probe.command, ...probe.body.cli.probe.args].join(' '));
  expect(await dialog.locator('.isolation').textContent()).toContain(probe.body.isolation.runsAs);
  // What its interactive sessions start: the confirmed CLI and nothing else, under process:spawn.
  expect(await dialog.locator('.sessions').textContent()).toContain(`Interactive sessions: start the CLI ${probe.body.cli.probe.command} and nothing else`);
  expect(await dialog.textContent()).toContain(probe.body.notice[0]);
  await screenshot(page, 'extensions-permission-dialog');
  await dialog.getByRole('button', { name: 'Enable' }).click();
  await waitFor(async () => (await row(ID).locator('.state').textContent()) === 'enabled', 10_000, 'the provider enabled');
  expect(await query('hello')).toBe('v1.0.0\nhello');
  const listed = await serve.api<{ items: Array<{ id: string; isolation: { mode: string } }> }>('GET', '/api/extensions');
  const mode = listed.body.items.find((e) => e.id === ID)!.isolation.mode;
  expect(await row(ID).locator('.isolation').textContent()).toContain(mode === 'process' ? 'hardened process' : 'worker thread');
});

test('an update asking for a new permission is marked new and the old version serves until it is confirmed', async () => {
  await row(ID).getByRole('button', { name: 'Update to 2.0.0' }).click();
  await waitFor(async () => (await row(ID).locator('.state').textContent()) === 'needs-confirmation', 15_000, 'the update waiting');
  await waitFor(async () => (await row(ID).textContent())?.includes('update 2.0.0 waits for confirmation'), 10_000, 'the pending version shown');
  expect(await query('still')).toBe('v1.0.0\nstill');

  await row(ID).getByRole('button', { name: 'Review update' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText('network:provider').waitFor();
  const newBadges = dialog.locator('li', { has: page.locator('.badge.new') });
  expect(await newBadges.count()).toBe(1);
  expect(await newBadges.textContent()).toContain('network:provider');
  expect(await dialog.textContent()).toContain('Version 1.0.0 keeps serving until you confirm');
  await screenshot(page, 'extensions-update-dialog');
  await dialog.getByRole('button', { name: 'Confirm update' }).click();
  await waitFor(async () => (await row(ID).locator('.state').textContent()) === 'enabled', 15_000, 'the update confirmed');
  expect(await row(ID).textContent()).toContain('2.0.0');
  expect(await query('now')).toBe('v2.0.0\nnow');
  await screenshot(page, 'extensions');
});

test('developer mode registers a built provider folder in place and removes it', async () => {
  const dir = copyFixtureProvider('echo');
  await page.getByLabel('Provider folder (absolute path on this machine)').fill(dir);
  await page.getByRole('button', { name: 'Register' }).click();
  await row('svc-test.echo').waitFor();
  expect(await row('svc-test.echo').textContent()).toContain('dev');
  const listed = await serve.api<{ items: Array<{ id: string; source: string; state: string }> }>('GET', '/api/extensions');
  expect(listed.body.items.find((e) => e.id === 'svc-test.echo')).toMatchObject({ source: 'dev', state: 'disabled' });

  await page.getByLabel('Provider folder (absolute path on this machine)').fill('relative/folder');
  await page.getByRole('button', { name: 'Register' }).click();
  await page.getByRole('alert').filter({ hasText: 'absolute path' }).waitFor();

  await row('svc-test.echo').getByRole('button', { name: 'Remove' }).click();
  await waitFor(async () => (await row('svc-test.echo').count()) === 0, 10_000, 'the registration removed');
});

test("the permission dialog lists every configuration file of the CLI the provider's integrations may touch", async () => {
  const dir = copyFixtureProvider('echo');
  const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
  pkg.name = '@svc-test/svc-provider-claude-files';
  pkg.svc.id = 'svc-test.claude-files';
  pkg.svc.command = { default: 'claude', aliases: [], knownPaths: {}, versionArgs: ['--version'] };
  delete pkg.svc.compatibility.cli;
  pkg.svc.capabilities.integrations = { mcp: true };
  pkg.svc.permissions = ['integration:mcp'];
  pkg.svc.integrationFiles = { user: ['~/.claude.json', '$CLAUDE_CONFIG_DIR/'], project: ['.mcp.json'] };
  await writeFile(join(dir, 'package.json'), JSON.stringify(pkg));
  await page.getByLabel('Provider folder (absolute path on this machine)').fill(dir);
  await page.getByRole('button', { name: 'Register' }).click();
  await row('svc-test.claude-files').waitFor();
  await row('svc-test.claude-files').getByRole('button', { name: 'Enable…' }).click();
  const dialog = page.getByRole('dialog');
  const files = dialog.getByRole('list', { name: 'Integration files' });
  await files.waitFor();
  expect(await files.locator('li').allTextContents()).toEqual(['~/.claude.json', '$CLAUDE_CONFIG_DIR/', '<project>/.mcp.json']);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await row('svc-test.claude-files').getByRole('button', { name: 'Remove' }).click();
  await waitFor(async () => (await row('svc-test.claude-files').count()) === 0, 10_000, 'the registration removed');
});

test('with the catalog key pinned the page says who signed the index, and refuses one signed by another key', async () => {
  const key = await writeCatalogKeyPair(join(scratch, 'keys/catalog'), []);
  const stranger = await writeCatalogKeyPair(join(scratch, 'keys/stranger'), []);
  const built = JSON.parse(await readFile(join(scratch, 'out/index.v1.json'), 'utf8')) as object;
  const expires = new Date(Date.now() + 86_400_000).toISOString();
  publishSignedIndex(server, { ...built, version: 3, expires }, key);
  expect((await svc.run(['config', 'set', 'extensions.catalogKeys', key.pin])).code).toBe(0);
  await page.goto(`${serve.url}/settings/extensions`);
  await page.locator('.catalog-signature').waitFor();
  const line = await page.locator('.catalog-signature').textContent();
  expect(line).toContain(`Signed by pinned key ${key.keyId} (index version 3, expires ${expires}).`);
  expect(await page.locator(`[data-catalog="${ID}"]`).count()).toBe(1);

  publishSignedIndex(server, { ...built, version: 4, expires }, stranger);
  await page.goto(`${serve.url}/settings/extensions`);
  const refused = page.getByRole('alert').filter({ hasText: 'index_signature_invalid' });
  await refused.waitFor();
  expect(await page.locator('.catalog-signature').count()).toBe(0);
  expect(await page.locator(`[data-catalog="${ID}"]`).count()).toBe(0);
  // The installed provider is untouched by the refusal.
  expect(await row(ID).textContent()).toContain('2.0.0');
});
