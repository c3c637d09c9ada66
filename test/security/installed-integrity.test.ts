// An installed catalog version is what was verified at install: its files are read-only, the digest
// of its tree is recorded, and a tree changed afterwards (another extension rewriting it, a stray
// script) turns the extension `broken` with `artifact_modified` instead of running. An index that lists
// other permissions than the artifact's manifest is refused before anything is installed.
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startFixtureCatalog, type FixtureCatalog } from '../support/catalog-fixture.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';

const ID = 'svc-test.integrity';
const LIAR = 'svc-test.index-liar';

let catalog: FixtureCatalog;
let svc: SvcSandbox;

beforeAll(async () => {
  catalog = await startFixtureCatalog([
    { folder: 'integrity-v100', id: ID, version: '1.0.0', permissions: ['process:spawn'] },
    { folder: 'index-liar-v100', id: LIAR, version: '1.0.0', permissions: ['process:spawn'] },
  ]);
  svc = createSvcSandbox();
  svc.env.NODE_EXTRA_CA_CERTS = catalog.ca.caCertFile;
  svc.env.SVC_EXTENSION_CATALOG_URL = catalog.server.baseUrl;
}, 120_000);

afterAll(async () => {
  await catalog?.close();
  svc?.cleanup();
});

const entry = () => join(svc.home, 'extensions/store', ID, '1.0.0/dist/svc-cli-provider.js');

async function state(id: string): Promise<{ state: string; error?: { code: string } }> {
  const rows = JSON.parse((await svc.run(['ext', 'list', '--json'])).stdout) as Array<{ id: string; state: string; error?: { code: string } }>;
  return rows.find((row) => row.id === id)!;
}

test('an installed version is read-only and serves while it is unchanged', async () => {
  expect((await svc.run(['ext', 'install', `${ID}@1.0.0`])).code).toBe(0);
  expect((await svc.run(['ext', 'enable', ID, '--yes'])).code).toBe(0);
  expect(statSync(entry()).mode & 0o777).toBe(0o444);
  const answer = await svc.run(['query', '--provider', ID, 'intact']);
  expect(answer.stdout, answer.stderr).toBe('v1.0.0\nintact\n');
});

test('a tree changed after the install is not run: the extension turns broken with artifact_modified', async () => {
  const marker = join(svc.home, 'tampered-code-ran');
  chmodSync(join(svc.home, 'extensions/store', ID, '1.0.0/dist'), 0o755);
  chmodSync(entry(), 0o644);
  writeFileSync(entry(), `${readFileSync(entry(), 'utf8')}\nimport { writeFileSync as w } from 'node:fs'; w(${JSON.stringify(marker)}, 'ran');\n`);
  const result = await svc.run(['query', '--provider', ID, 'hi']);
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/^error artifact_modified: /m);
  expect(existsSync(marker)).toBe(false);
  expect(await state(ID)).toMatchObject({ state: 'broken', error: { code: 'artifact_modified' } });
  // Enabling again does not bless the changed files either.
  const again = await svc.run(['ext', 'enable', ID, '--yes']);
  expect(again.stderr).toMatch(/^error artifact_modified: /m);
  expect(existsSync(marker)).toBe(false);
});

test('an index that lists other permissions than the artifact asks for is refused with index_manifest_mismatch', async () => {
  const indexFile = join(catalog.scratch, 'out/index.v1.json');
  const index = JSON.parse(readFileSync(indexFile, 'utf8')) as { extensions: Array<{ id: string; versions: Array<{ permissions: string[] }> }> };
  index.extensions.find((extension) => extension.id === LIAR)!.versions[0]!.permissions = [];
  catalog.server.override('index.v1.json', Buffer.from(JSON.stringify(index)));
  try {
    const result = await svc.run(['ext', 'install', `${LIAR}@1.0.0`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error index_manifest_mismatch: the catalog lists svc-test\.index-liar 1\.0\.0 with the permissions \(none\), but its artifact requests process:spawn/m);
    expect(await state(LIAR)).toBeUndefined();
    expect(existsSync(join(svc.home, 'extensions/store', LIAR))).toBe(false);
  } finally {
    catalog.server.override('index.v1.json', undefined);
  }
});
