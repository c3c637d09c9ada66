import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildCatalog } from '../src/index.js';
import { BUILD_PROVIDER_SCRIPT, makeFixtureRepo, type FixtureProvider } from './make-fixture-repo.js';

let scratch: string;
let counter = 0;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-catalog-decl-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function buildFixture(providers: FixtureProvider[], prepare?: (root: string) => Promise<void>) {
  const root = join(scratch, `repo-${++counter}`);
  const outputDir = join(scratch, `out-${counter}`);
  await makeFixtureRepo(root, providers);
  await prepare?.(root);
  const result = buildCatalog({ root, baseUrl: 'https://downloads.test/c', outputDir, buildProviderScript: BUILD_PROVIDER_SCRIPT, skipChecks: true });
  return { result, outputDir };
}

test.each([
  ['id', { id: 'acme.other' }, { field: 'id', declared: 'acme.other', packaged: 'acme.alpha' }],
  ['publisher', { id: 'other.alpha', publisher: 'other' }, { field: 'id', declared: 'other.alpha', packaged: 'acme.alpha' }],
  ['version', { version: '1.0.1' }, { field: 'version', declared: '1.0.1', packaged: '1.0.0' }],
])('refuses a declaration whose %s differs from the manifest', async (_field, override, mismatch) => {
  const { result, outputDir } = await buildFixture([{ folder: 'alpha', id: 'acme.alpha', version: '1.0.0', declaration: override }]);
  const error = await result.then(
    () => undefined,
    (e: unknown) => e as { code: string; message: string; details: { fields: unknown[] } },
  );
  expect(error?.code).toBe('catalog_declaration_mismatch');
  expect(error?.details.fields).toContainEqual(mismatch);
  expect(error?.message).toContain('alpha-1.0.0.json');
  // Nothing of a refused catalog is written.
  await expect(readdir(outputDir)).rejects.toMatchObject({ code: 'ENOENT' });
});

test('refuses a manifest publisher that is not the prefix of its id, as an install would', async () => {
  const { result } = await buildFixture([{ folder: 'alpha', id: 'acme.alpha', version: '1.0.0' }], async (root) => {
    const file = join(root, 'extensions/cli-providers/alpha/package.json');
    const pkg = JSON.parse(await readFile(file, 'utf8')) as { svc: { publisher: string } };
    pkg.svc.publisher = 'someone';
    await writeFile(file, JSON.stringify(pkg));
  });
  await expect(result).rejects.toMatchObject({
    code: 'catalog_manifest_invalid',
    message: expect.stringContaining('svc.publisher "someone" differs from the publisher part of svc.id "acme.alpha"'),
    details: { installCode: 'manifest_invalid', check: 'manifest' },
  });
});

test.each([
  ['a version range', { version: '^1.0.0' }],
  ['build metadata', { version: '1.0.0+build.7' }],
  ['a provider path', { provider: '../alpha' }],
  ['an unknown field', { url: 'https://elsewhere.test/a.tgz' }],
  ['a publisher that is not the id prefix', { publisher: 'other' }],
])('refuses a declaration with %s', async (_what, override) => {
  const { result } = await buildFixture([{ folder: 'alpha', id: 'acme.alpha', version: '1.0.0', declaration: override }]);
  await expect(result).rejects.toMatchObject({ code: 'catalog_declaration_invalid' });
});

test('refuses a declaration that is not JSON', async () => {
  const { result } = await buildFixture([{ folder: 'alpha', id: 'acme.alpha', version: '1.0.0' }], async (root) => {
    await writeFile(join(root, 'extensions/catalog/sources/broken.json'), '{ "id": ');
  });
  await expect(result).rejects.toMatchObject({ code: 'catalog_declaration_invalid', message: expect.stringContaining('broken.json') });
});

test('refuses two declarations of one version', async () => {
  const { result } = await buildFixture([{ folder: 'alpha', id: 'acme.alpha', version: '1.0.0' }], async (root) => {
    await writeFile(
      join(root, 'extensions/catalog/sources/again.json'),
      JSON.stringify({ id: 'acme.alpha', publisher: 'acme', version: '1.0.0', provider: 'alpha' }),
    );
  });
  await expect(result).rejects.toMatchObject({ code: 'catalog_duplicate_version' });
});

test('refuses a declaration naming a provider folder that does not exist', async () => {
  const { result } = await buildFixture([{ folder: 'alpha', id: 'acme.alpha', version: '1.0.0', declaration: { provider: 'ghost' } }]);
  await expect(result).rejects.toMatchObject({ code: 'catalog_provider_missing' });
});

test('refuses a provider whose manifest breaks the contract', async () => {
  const { result } = await buildFixture([
    { folder: 'alpha', id: 'acme.alpha', version: '1.0.0', extraPackageFields: { name: 'not-a-provider-name' } },
  ]);
  await expect(result).rejects.toMatchObject({ code: 'catalog_manifest_invalid', message: expect.stringContaining('svc-provider-') });
});

test('refuses an output folder that already holds files', async () => {
  const { result, outputDir } = await buildFixture([{ folder: 'alpha', id: 'acme.alpha', version: '1.0.0' }], async () => {
    await mkdir(join(scratch, `out-${counter}`), { recursive: true });
    await writeFile(join(scratch, `out-${counter}`, 'stale.tgz'), 'old');
  });
  await expect(result).rejects.toMatchObject({ code: 'catalog_output_not_empty' });
  expect(await readdir(outputDir)).toEqual(['stale.tgz']);
});

test('refuses a schema file that is not a valid JSON Schema', async () => {
  const { result } = await buildFixture([{ folder: 'alpha', id: 'acme.alpha', version: '1.0.0' }], async (root) => {
    await writeFile(join(root, 'extensions/catalog/schema/index.v1.schema.json'), JSON.stringify({ type: 'objekt' }));
  });
  await expect(result).rejects.toMatchObject({ code: 'catalog_schema_invalid' });
});
