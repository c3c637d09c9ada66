import { chmod, mkdtemp, readdir, readFile, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildCatalog } from '../src/index.js';
import { BUILD_PROVIDER_SCRIPT, makeFixtureRepo } from './make-fixture-repo.js';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-catalog-repro-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

test('two builds of the same sources are byte-identical, even after file times and modes change', async () => {
  const root = join(scratch, 'repo');
  await makeFixtureRepo(root, [
    { folder: 'alpha', id: 'acme.alpha', version: '1.0.0' },
    { folder: 'alpha-next', id: 'acme.alpha', version: '1.1.0-rc.1' },
    { folder: 'beta', id: 'other.beta', version: '0.2.0' },
  ]);
  const build = (name: string) =>
    // An explicit index version and an absolute expiry: the defaults come from the build's clock.
    buildCatalog({
      root,
      baseUrl: 'https://downloads.test/svc/catalog',
      outputDir: join(scratch, name),
      buildProviderScript: BUILD_PROVIDER_SCRIPT,
      skipChecks: true,
      indexVersion: '42',
      expires: '2099-01-01T00:00:00Z',
    });

  const first = await build('first');
  // What differs between two publishers' machines: times and permission bits of the sources.
  const schema = join(root, 'extensions/cli-providers/alpha/config.schema.json');
  await chmod(schema, 0o600);
  await utimes(schema, new Date('2030-01-01T00:00:00Z'), new Date('2030-01-01T00:00:00Z'));
  const second = await build('second');

  const firstFiles = await listFiles(join(scratch, 'first'));
  expect(firstFiles).toEqual([
    'artifacts/acme.alpha/1.0.0/acme.alpha-1.0.0.tgz',
    'artifacts/acme.alpha/1.1.0-rc.1/acme.alpha-1.1.0-rc.1.tgz',
    'artifacts/other.beta/0.2.0/other.beta-0.2.0.tgz',
    'index.v1.json',
  ]);
  expect(await listFiles(join(scratch, 'second'))).toEqual(firstFiles);
  for (const file of firstFiles) {
    const a = await readFile(join(scratch, 'first', file));
    const b = await readFile(join(scratch, 'second', file));
    expect(b.equals(a), file).toBe(true);
  }
  expect(second.index).toEqual(first.index);
});

test('the gzip header carries no timestamp and no build-platform byte', async () => {
  const root = join(scratch, 'repo-gzip');
  await makeFixtureRepo(root, [{ folder: 'alpha', id: 'acme.alpha', version: '1.0.0' }]);
  const { artifacts } = await buildCatalog({
    root,
    baseUrl: 'https://downloads.test/c',
    outputDir: join(scratch, 'gzip'),
    buildProviderScript: BUILD_PROVIDER_SCRIPT,
    skipChecks: true,
  });
  const bytes = await readFile(artifacts[0]!.file);
  expect([...bytes.subarray(0, 4)]).toEqual([0x1f, 0x8b, 8, 0]); // magic, deflate, no flags (no name, no comment)
  expect(bytes.readUInt32LE(4)).toBe(0); // MTIME
  expect(bytes[9]).toBe(255); // OS: unknown
});

test('versions of one extension are listed newest first, extensions by id', async () => {
  const root = join(scratch, 'repo-order');
  await makeFixtureRepo(root, [
    { folder: 'zeta', id: 'acme.zeta', version: '0.1.0' },
    { folder: 'alpha-old', id: 'acme.alpha', version: '0.9.0' },
    { folder: 'alpha-new', id: 'acme.alpha', version: '0.10.0', permissions: ['process:spawn', 'config:provider'] },
  ]);
  const { index } = await buildCatalog({
    root,
    baseUrl: 'https://downloads.test/c',
    outputDir: join(scratch, 'order'),
    buildProviderScript: BUILD_PROVIDER_SCRIPT,
    skipChecks: true,
  });
  expect(index.extensions.map((extension) => extension.id)).toEqual(['acme.alpha', 'acme.zeta']);
  expect(index.extensions[0]!.versions.map((version) => version.version)).toEqual(['0.10.0', '0.9.0']);
  expect(index.extensions[0]!.displayName).toBe('Fixture alpha-new');
  expect(index.extensions[0]!.versions[0]!.permissions).toEqual(['process:spawn', 'config:provider']);
});
