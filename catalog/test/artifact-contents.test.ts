import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser, type ReadEntry } from 'tar';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildCatalog, type CatalogBuildResult } from '../src/index.js';
import { BUILD_PROVIDER_SCRIPT, makeFixtureRepo } from './make-fixture-repo.js';

interface ListedEntry {
  path: string;
  type: string;
  mode: number | undefined;
  uid: number | undefined;
  gid: number | undefined;
  uname: string | undefined;
  gname: string | undefined;
  mtime: string | undefined;
  body: Buffer;
}

// node-tar's reader, independent of the host's own, so the test checks the bytes and not our parser.
async function listArchive(file: string): Promise<ListedEntry[]> {
  const entries: ListedEntry[] = [];
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () =>
        entries.push({
          path: entry.path,
          type: entry.type,
          mode: entry.mode,
          uid: entry.uid,
          gid: entry.gid,
          uname: entry.uname,
          gname: entry.gname,
          mtime: entry.mtime?.toISOString(),
          body: Buffer.concat(chunks),
        }),
      );
    },
  });
  const bytes = await readFile(file);
  await new Promise<void>((resolve, reject) => {
    parser.on('end', resolve);
    parser.on('error', reject);
    parser.end(bytes);
  });
  return entries;
}

let scratch: string;
let build: CatalogBuildResult;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-catalog-contents-'));
  const root = join(scratch, 'repo');
  await makeFixtureRepo(root, [
    {
      folder: 'alpha',
      id: 'acme.alpha',
      version: '1.0.0',
      // Everything a provider folder holds besides what is published.
      extraFiles: {
        'README.md': '# alpha\n',
        'test/alpha.test.ts': 'export {};\n',
        'tsconfig.json': '{}\n',
        'node_modules/left-pad/index.js': 'module.exports = 1;\n',
        'node_modules/left-pad/package.json': '{"name":"left-pad","scripts":{"postinstall":"x"}}\n',
        '.env': 'API_KEY=not-a-real-key\n',
      },
    },
  ]);
  build = await buildCatalog({
    root,
    baseUrl: 'https://downloads.test/svc/catalog/',
    outputDir: join(scratch, 'out'),
    buildProviderScript: BUILD_PROVIDER_SCRIPT,
    skipChecks: true,
  });
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

test('the artifact holds exactly package.json, dist and the config schema', async () => {
  const entries = await listArchive(build.artifacts[0]!.file);
  expect(entries.map((entry) => entry.path)).toEqual([
    'package/config.schema.json',
    'package/dist/svc-cli-provider.js',
    'package/package.json',
  ]);
  const bundle = entries.find((entry) => entry.path === 'package/dist/svc-cli-provider.js')!.body.toString('utf8');
  expect(bundle).toContain('svcCliPlugin');
});

test('package.json in the artifact has no scripts and no dependency fields, and keeps the manifest', async () => {
  const entries = await listArchive(build.artifacts[0]!.file);
  const pkg = JSON.parse(entries.find((entry) => entry.path === 'package/package.json')!.body.toString('utf8')) as Record<string, unknown>;
  for (const field of ['scripts', 'dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies', 'bundledDependencies', 'bundleDependencies']) {
    expect(pkg, field).not.toHaveProperty(field);
  }
  expect(pkg).toMatchObject({ name: '@fixture/svc-provider-alpha', version: '1.0.0', svc: { id: 'acme.alpha', publisher: 'acme' } });
  expect(Object.keys(pkg)).toEqual(['name', 'version', 'description', 'type', 'private', 'exports', 'files', 'svc']);
});

test('every entry is a regular file with normalized owner, mode and time', async () => {
  for (const entry of await listArchive(build.artifacts[0]!.file)) {
    expect(entry, entry.path).toMatchObject({
      type: 'File',
      mode: 0o644,
      uid: 0,
      gid: 0,
      uname: '',
      gname: '',
      mtime: '1985-10-26T08:15:00.000Z',
    });
  }
});

test('the index records the URL, SHA-256, SRI and byte size of each written artifact', async () => {
  const artifact = build.artifacts[0]!;
  const bytes = await readFile(artifact.file);
  const sha256 = createHash('sha256').update(bytes).digest();
  const index = JSON.parse(await readFile(build.indexFile, 'utf8')) as typeof build.index;
  expect(index.extensions[0]!.versions[0]!.artifact).toEqual({
    url: 'https://downloads.test/svc/catalog/artifacts/acme.alpha/1.0.0/acme.alpha-1.0.0.tgz',
    sha256: sha256.toString('hex'),
    integrity: `sha256-${sha256.toString('base64')}`,
    size: bytes.length,
  });
  expect(artifact.file).toBe(join(scratch, 'out/artifacts/acme.alpha/1.0.0/acme.alpha-1.0.0.tgz'));
});
