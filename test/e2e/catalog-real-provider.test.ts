// The Qwen Code sample as it is published: its real declaration and sources packed by the catalog
// build, served over HTTPS, installed, enabled and queried through the real `svc` (the stand-in
// `qwen` replaying recorded output on PATH).
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCatalogBuild, serveCatalog, type CatalogServer } from '../support/catalog-fixture.js';
import { createSvcSandbox, REPO_ROOT, type SvcSandbox } from '../support/svc-process.js';
import { createThrowawayCa } from '../support/throwaway-https.js';

const ID = 'svc-community.qwen-code';
let scratch: string;
let server: CatalogServer;
let svc: SvcSandbox;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-catalog-real-'));
  const repo = join(scratch, 'repo');
  // Only what a publisher's checkout needs for this one provider: schemas, its declaration, its sources.
  cpSync(join(REPO_ROOT, 'extensions/catalog/schema'), join(repo, 'extensions/catalog/schema'), { recursive: true });
  mkdirSync(join(repo, 'extensions/catalog/sources'), { recursive: true });
  cpSync(join(REPO_ROOT, 'extensions/catalog/sources/qwen-code.json'), join(repo, 'extensions/catalog/sources/qwen-code.json'));
  for (const part of ['package.json', 'config.schema.json', 'tsconfig.json', 'src']) {
    cpSync(join(REPO_ROOT, 'extensions/cli-providers/qwen-code', part), join(repo, 'extensions/cli-providers/qwen-code', part), { recursive: true });
  }
  // As after `pnpm install` in a publisher's checkout: the workspace SDK is linked.
  mkdirSync(join(repo, 'node_modules/@svc-org'), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'sdk'), join(repo, 'node_modules/@svc-org/ai-sdk'));
  mkdirSync(join(scratch, 'ca'));
  const ca = createThrowawayCa(join(scratch, 'ca'));
  server = await serveCatalog(ca, join(scratch, 'out'));
  runCatalogBuild(repo, server.baseUrl, join(scratch, 'out'));
  svc = createSvcSandbox([join(REPO_ROOT, 'test/fake-clis/qwen')]);
  svc.env.NODE_EXTRA_CA_CERTS = ca.caCertFile;
  svc.env.SVC_EXTENSION_CATALOG_URL = server.baseUrl;
});

afterAll(async () => {
  await server?.close();
  svc?.cleanup();
  await rm(scratch, { recursive: true, force: true });
});

test('the published Qwen Code sample installs from the catalog and answers a query', async () => {
  const catalog = await svc.run(['ext', 'catalog']);
  expect(catalog.code).toBe(0);
  expect(catalog.stdout).toContain(ID);
  expect(catalog.stdout).toContain('network:provider');

  const install = await svc.run(['ext', 'install', `${ID}@0.1.0`]);
  expect(install.code).toBe(0);
  const rows = JSON.parse((await svc.run(['ext', 'list', '--json'])).stdout) as Array<{ id: string; source: string; state: string; path: string }>;
  const row = rows.find((r) => r.id === ID)!;
  expect(row).toMatchObject({ source: 'catalog', state: 'disabled' });
  expect(row.path.startsWith(svc.home)).toBe(true);

  expect((await svc.run(['ext', 'enable', ID, '--yes'])).code).toBe(0);
  const query = await svc.run(['query', '--json', '--provider', ID, 'Say hello']);
  expect(query.code).toBe(0);
  const events = query.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string });
  expect(events[0]).toEqual({ type: 'session', sessionId: '606f6d75-128e-4a79-874f-d2abc5e5f104' });
  expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });

  expect((await svc.run(['ext', 'uninstall', ID])).code).toBe(0);
  const after = JSON.parse((await svc.run(['ext', 'list', '--json'])).stdout) as Array<{ id: string }>;
  expect(after.some((r) => r.id === ID)).toBe(false);
});
