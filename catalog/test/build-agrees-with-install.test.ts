// One set of rules: what the catalog build publishes, an install accepts. The build runs the
// installer's own manifest, entry, config-schema and archive checks, so it refuses first.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkManifest } from '@svc-org/extension-format/manifest';
import { buildCatalog, checkArtifactInstallable, packDeterministicTgz, type BuildCatalogOptions } from '../src/index.js';
import { BUILD_PROVIDER_SCRIPT, makeFixtureRepo, type FixtureProvider } from './make-fixture-repo.js';

let scratch: string;
let counter = 0;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-catalog-agree-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function fixture(providers: FixtureProvider[]) {
  const root = join(scratch, `repo-${++counter}`);
  await makeFixtureRepo(root, providers);
  const outputDir = join(scratch, `out-${counter}`);
  const build = (extra: Partial<BuildCatalogOptions> = {}) =>
    buildCatalog({ root, baseUrl: 'https://downloads.test/c', outputDir, buildProviderScript: BUILD_PROVIDER_SCRIPT, skipChecks: true, ...extra });
  return { root, outputDir, build };
}

test('a package named …-qwen-code-v2 for the id svc-community.qwen-code is refused by the build, as the installer refuses it', async () => {
  const { root, outputDir, build } = await fixture([
    { folder: 'qwen-code', id: 'svc-community.qwen-code', version: '0.2.0', extraPackageFields: { name: '@svc-community/svc-provider-qwen-code-v2' } },
  ]);
  // The installer's preflight, on the same folder: this is what an install would answer.
  const install = await checkManifest(join(root, 'extensions/cli-providers/qwen-code'));
  expect(install).toMatchObject({ ok: false, code: 'manifest_invalid' });

  await expect(build()).rejects.toMatchObject({
    code: 'catalog_manifest_invalid',
    message: expect.stringContaining('package name "@svc-community/svc-provider-qwen-code-v2" does not end in "svc-provider-qwen-code"'),
    details: { installCode: 'manifest_invalid', fix: 'Rename the package to "@svc-community/svc-provider-qwen-code", or change "svc.id"' },
  });
  await expect(readdir(outputDir)).rejects.toMatchObject({ code: 'ENOENT' });
});

test('a permission the host does not know is refused by the build', async () => {
  const { build } = await fixture([{ folder: 'alpha', id: 'acme.alpha', version: '1.0.0', permissions: ['process:spawn', 'network:everything'] }]);
  await expect(build()).rejects.toMatchObject({ code: 'catalog_manifest_invalid', details: { installCode: expect.stringMatching(/^permission/) } });
});

test('a packed artifact the installer would refuse is refused before anything is written', async () => {
  const withScripts = packDeterministicTgz([
    { path: 'package/package.json', contents: Buffer.from(JSON.stringify({ name: '@a/svc-provider-b', version: '1.0.0', scripts: { postinstall: 'x' } })) },
  ]);
  await expect(checkArtifactInstallable(withScripts, 'a.b@1.0.0')).rejects.toMatchObject({
    code: 'catalog_pack_invalid',
    details: { installCode: 'artifact_lifecycle_scripts' },
  });
});

test('--only builds and indexes the named declarations, and still checks every other one', async () => {
  const { root, build } = await fixture([
    { folder: 'alpha', id: 'acme.alpha', version: '1.0.0' },
    { folder: 'beta', id: 'acme.beta', version: '0.2.0' },
  ]);
  const log: string[] = [];
  const result = await build({ select: { only: ['acme.beta'] }, log: (line) => log.push(line) });
  expect(result.index.extensions.map((e) => e.id)).toEqual(['acme.beta']);
  expect(log).toContain('building 1 of 2 declaration(s): acme.beta@0.2.0');
  expect(log.some((line) => line.includes('alpha'))).toBe(false);

  await expect(build({ outputDir: join(scratch, `out-none-${counter}`), select: { only: ['acme.gamma'] } })).rejects.toMatchObject({
    code: 'catalog_usage',
    message: expect.stringContaining('acme.gamma'),
  });

  // An unselected provider whose manifest an install would refuse still stops the build.
  const file = join(root, 'extensions/cli-providers/alpha/package.json');
  const pkg = JSON.parse(await readFile(file, 'utf8')) as { name: string };
  await writeFile(file, JSON.stringify({ ...pkg, name: '@fixture/svc-provider-alpha-v2' }));
  await expect(build({ outputDir: join(scratch, `out-only-${counter}`), select: { only: ['acme.beta'] } })).rejects.toMatchObject({ code: 'catalog_manifest_invalid' });
});

test('--changed-since builds only the declarations whose provider or declaration changed since the revision', async () => {
  const { root, build } = await fixture([
    { folder: 'alpha', id: 'acme.alpha', version: '1.0.0' },
    { folder: 'beta', id: 'acme.beta', version: '0.2.0' },
  ]);
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { stdio: 'pipe' });
  git('init', '-q');
  git('-c', 'user.email=t@example.invalid', '-c', 'user.name=t', 'add', '-A');
  git('-c', 'user.email=t@example.invalid', '-c', 'user.name=t', 'commit', '-qm', 'base');
  expect((await build({ select: { changedSince: 'HEAD' } })).index.extensions).toEqual([]);

  await writeFile(join(root, 'extensions/cli-providers/beta/src/extra.ts'), 'export const extra = 1;\n');
  const changed = await build({ outputDir: join(scratch, `out-changed-${counter}`), select: { changedSince: 'HEAD' } });
  expect(changed.index.extensions.map((e) => e.id)).toEqual(['acme.beta']);
});
