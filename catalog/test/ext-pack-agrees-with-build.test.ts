// `svc ext pack` checks a provider folder as the catalog build does: a folder the build refuses is
// refused by `svc ext pack` with the same code, and what it packs is what the build publishes, byte
// for byte. `svc catalog build` refuses an artifact that no longer matches its declaration.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildCatalog } from '../src/index.js';
import { BUILD_PROVIDER_SCRIPT, makeFixtureRepo, REPO_ROOT, type FixtureProvider } from './make-fixture-repo.js';

const run = promisify(execFile);
const SVC = join(REPO_ROOT, 'host/bin/svc.mjs');

let scratch: string;
let counter = 0;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-ext-pack-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function svc(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [SVC, ...args], { env: { ...process.env, SVC_HOME: join(scratch, 'home'), NO_COLOR: '1' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** A fixture repository with one provider, built as the catalog build builds it. */
async function provider(overrides: Partial<FixtureProvider> = {}) {
  const root = join(scratch, `repo-${++counter}`);
  await makeFixtureRepo(root, [{ folder: 'alpha', id: 'acme.alpha', version: '1.0.0', ...overrides }]);
  const dir = join(root, 'extensions/cli-providers/alpha');
  await run(process.execPath, [BUILD_PROVIDER_SCRIPT, dir]);
  const build = () =>
    buildCatalog({ root, baseUrl: 'https://downloads.test/c', outputDir: join(scratch, `out-${counter}`), buildProviderScript: BUILD_PROVIDER_SCRIPT, skipChecks: true });
  return { root, dir, build };
}

describe('svc ext pack', () => {
  test('two packs of the same folder are byte-identical and equal to the artifact the catalog build publishes', async () => {
    const { dir, build } = await provider();
    const first = await svc(['ext', 'pack', dir, '--out', join(scratch, 'p1'), '--json']);
    expect(first.code, first.stderr).toBe(0);
    const second = await svc(['ext', 'pack', dir, '--out', join(scratch, 'p2'), '--json']);
    expect(second.code, second.stderr).toBe(0);
    const a = JSON.parse(first.stdout) as { artifact: string; sha256: string; size: number };
    const b = JSON.parse(second.stdout) as { artifact: string; sha256: string };
    expect(a.artifact.endsWith('acme.alpha-1.0.0.tgz')).toBe(true);
    expect((await readFile(a.artifact)).equals(await readFile(b.artifact))).toBe(true);
    expect(b.sha256).toBe(a.sha256);

    const built = await build();
    expect(built.artifacts).toHaveLength(1);
    expect(built.artifacts[0]).toMatchObject({ sha256: a.sha256, size: a.size });
  });

  test.each<[string, Partial<FixtureProvider>, string]>([
    ['a package name that does not match its id', { extraPackageFields: { name: '@acme/svc-provider-alpha-v2' } }, 'catalog_manifest_invalid'],
    ['a version that is not a semantic version', { extraPackageFields: { version: 'banana' } }, 'catalog_manifest_invalid'],
    ['a permission the host does not know', { permissions: ['process:spawn', 'network:everything'] }, 'catalog_manifest_invalid'],
    ['a config schema that is not a valid JSON Schema', { extraFiles: { 'config.schema.json': '{"type": "object", "properties": {"x": {"type": "nonsense"}}}' } }, 'catalog_manifest_invalid'],
  ])('refuses %s with the code the catalog build refuses it with', async (_what, overrides, code) => {
    const { dir, build } = await provider(overrides);
    const out = join(scratch, `refused-${counter}`);
    const packed = await svc(['ext', 'pack', dir, '--out', out]);
    expect(packed.code).toBe(1);
    expect(packed.stderr).toContain(`error ${code}: `);
    if (overrides.extraPackageFields?.version) expect(packed.stderr).toContain('"banana" is not a semantic version');
    await expect(readdir(out)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(build()).rejects.toMatchObject({ code });
  });

  test('a folder with no build is refused, by name', async () => {
    const root = join(scratch, `repo-${++counter}`);
    await makeFixtureRepo(root, [{ folder: 'alpha', id: 'acme.alpha', version: '1.0.0' }]);
    const packed = await svc(['ext', 'pack', join(root, 'extensions/cli-providers/alpha'), '--out', join(scratch, 'unbuilt')]);
    expect(packed.code).toBe(1);
    expect(packed.stderr).toMatch(/^error catalog_manifest_invalid: .*entry/m);
  });
});

describe('svc catalog build', () => {
  test('refuses an artifact whose declaration no longer describes it, and writes nothing', async () => {
    const { dir } = await provider();
    const packedDir = join(scratch, `packed-${counter}`);
    expect((await svc(['ext', 'pack', dir, '--out', packedDir])).code).toBe(0);
    const declarationFile = join(packedDir, 'acme.alpha-1.0.0.json');
    const declaration = JSON.parse(await readFile(declarationFile, 'utf8'));
    declaration.entry.permissions = [];
    await writeFile(declarationFile, JSON.stringify(declaration));
    const out = join(scratch, `site-${counter}`);

    const built = await svc(['catalog', 'build', '--artifacts', packedDir, '--base-url', 'https://downloads.test/c', '--out', out]);

    expect(built.code).toBe(1);
    expect(built.stderr).toContain('error catalog_declaration_mismatch: ');
    expect(built.stderr).toContain('entry differ');
    await expect(readdir(out)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('refuses a folder with nothing packed in it, and a base URL that is not https', async () => {
    const empty = join(scratch, `empty-${++counter}`);
    await rm(empty, { recursive: true, force: true });
    await import('node:fs/promises').then(({ mkdir }) => mkdir(empty));
    const none = await svc(['catalog', 'build', '--artifacts', empty, '--base-url', 'https://downloads.test/c', '--out', join(scratch, 'none')]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('error catalog_no_artifacts: ');
    const http = await svc(['catalog', 'build', '--artifacts', empty, '--base-url', 'http://downloads.test/c', '--out', join(scratch, 'none')]);
    expect(http.code).toBe(1);
    expect(http.stderr).toContain('error catalog_base_url_not_https: ');
  });

  test('svc catalog serve refuses an index built for another address, naming the fix', async () => {
    const { dir } = await provider();
    const packedDir = join(scratch, `packed-${counter}`);
    expect((await svc(['ext', 'pack', dir, '--out', packedDir])).code).toBe(0);
    const site = join(scratch, `site-${counter}`);
    expect((await svc(['catalog', 'build', '--artifacts', packedDir, '--base-url', 'https://downloads.test/c', '--out', site])).code).toBe(0);

    const served = await svc(['catalog', 'serve', site]);

    expect(served.code).toBe(1);
    expect(served.stderr).toContain('error catalog_serve_not_local: ');
    expect(served.stderr).toContain('--base-url https://127.0.0.1:<port>/c');
  });
});

describe('svc catalog serve', () => {
  test('serves the catalog folder below its base path and nothing else: no links out, no dotfiles, no traversal, GET and HEAD only', async () => {
    const { serveCatalog } = await import('../src/index.js');
    const { request } = await import('node:https');
    const { mkdir, symlink } = await import('node:fs/promises');
    const { createServer } = await import('node:net');
    const { dir } = await provider();
    const packedDir = join(scratch, `packed-${counter}`);
    expect((await svc(['ext', 'pack', dir, '--out', packedDir])).code).toBe(0);
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((done) => probe.close(() => done()));
    const site = join(scratch, `site-${counter}`);
    expect((await svc(['catalog', 'build', '--artifacts', packedDir, '--base-url', `https://127.0.0.1:${port}/c`, '--out', site])).code).toBe(0);
    const outside = join(scratch, `outside-${counter}`);
    await mkdir(outside);
    await writeFile(join(outside, 'secret.txt'), 'not for the catalog');
    await symlink(outside, join(site, 'linked'));
    await writeFile(join(site, '.hidden'), 'dotfile');

    const served = await serveCatalog(site);
    const ca = await readFile(served.certificateFile);
    const get = (path: string, method = 'GET') =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path, method, ca }, (response) => {
          let body = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      expect(served.indexUrl).toBe(`https://127.0.0.1:${port}/c/index.v1.json`);
      const index = await get('/c/index.v1.json');
      expect(index.status).toBe(200);
      expect(index.body).toBe(await readFile(join(site, 'index.v1.json'), 'utf8'));
      expect((await get('/c/artifacts/acme.alpha/1.0.0/acme.alpha-1.0.0.tgz')).status).toBe(200);
      for (const path of ['/c/linked/secret.txt', '/c/.hidden', '/c/%2e%2e/outside/secret.txt', '/c/../c/.hidden', '/index.v1.json', '/c/', '/c/artifacts']) {
        expect((await get(path)).status, path).toBe(404);
      }
      expect((await get('/c/index.v1.json', 'POST')).status).toBe(404);
      expect((await get('/c/index.v1.json', 'HEAD')).status).toBe(200);
    } finally {
      await served.close();
    }
    await expect(readFile(served.certificateFile)).rejects.toMatchObject({ code: 'ENOENT' });

    // Kept in a stable folder, the certificate outlives the server and serves the next run again:
    // a NODE_EXTRA_CA_CERTS that names it never names a missing file.
    const certificateDir = join(scratch, `certificate-${counter}`);
    const first = await serveCatalog(site, { certificateDir });
    await first.close();
    const pem = await readFile(first.certificateFile, 'utf8');
    const second = await serveCatalog(site, { certificateDir });
    await second.close();
    expect(second.certificateFile).toBe(first.certificateFile);
    expect(await readFile(second.certificateFile, 'utf8')).toBe(pem);
  });

  test('svc catalog build into a folder that holds files says how to publish instead', async () => {
    const { dir } = await provider();
    const packedDir = join(scratch, `packed-${counter}`);
    expect((await svc(['ext', 'pack', dir, '--out', packedDir])).code).toBe(0);
    const site = join(scratch, `site-${counter}`);
    expect((await svc(['catalog', 'build', '--artifacts', packedDir, '--base-url', 'https://downloads.test/c', '--out', site])).code).toBe(0);
    const again = await svc(['catalog', 'build', '--artifacts', packedDir, '--base-url', 'https://downloads.test/c', '--out', site]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('error catalog_output_not_empty: ');
    expect(again.stderr).toMatch(/\n {2}fix: Build into a new folder \(or empty this one\): each build writes the whole catalog/);
  });
});
