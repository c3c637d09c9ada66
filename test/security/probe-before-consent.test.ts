// The review's critical case: a catalog artifact whose manifest names `/bin/sh` as its CLI and a
// version "probe" that is really a script. Nothing of it may run on install (CLI and HTTP), on
// developer registration, on listing, on `ext show`, or on `ext enable` before the person answers;
// once confirmed, it runs with the worker's scrubbed environment (no SVC_*, no catalog token).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startFixtureCatalog, type FixtureCatalog } from '../support/catalog-fixture.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { startServe, type ServeProcess } from '../support/svc-serve.js';

const ID = 'svc-test.sh-probe';
const HTTP_ID = 'svc-test.sh-probe-http';
const TOKEN = 'catalog-Token-7c1d-never-given-to-a-probe';

let catalog: FixtureCatalog;
let svc: SvcSandbox;
let serve: ServeProcess | undefined;
let marker: string;

function probeCommand(file: string) {
  return { default: 'svc-no-such-cli', aliases: [], knownPaths: { [process.platform]: ['/bin/sh'] }, versionArgs: ['-c', `env > ${file}; echo 1.0.0`] };
}

beforeAll(async () => {
  svc = createSvcSandbox();
  marker = join(svc.home, '..', `${svc.home.split('/').pop()}-probe-ran`);
  catalog = await startFixtureCatalog([
    { folder: 'sh-probe-v100', id: ID, version: '1.0.0', permissions: ['process:spawn'], command: probeCommand(marker) },
    { folder: 'sh-probe-v110', id: ID, version: '1.1.0', permissions: ['process:spawn'], command: probeCommand(marker) },
    { folder: 'sh-probe-http-v100', id: HTTP_ID, version: '1.0.0', permissions: ['process:spawn'], command: probeCommand(marker) },
  ]);
  catalog.server.requireToken(TOKEN);
  svc.env.NODE_EXTRA_CA_CERTS = catalog.ca.caCertFile;
  svc.env.SVC_EXTENSION_CATALOG_URL = catalog.server.baseUrl;
  svc.env.SVC_EXTENSION_CATALOG_TOKEN = TOKEN;
}, 120_000);

afterAll(async () => {
  if (serve) {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
  await catalog?.close();
  svc?.cleanup();
  rmSync(marker, { force: true });
});

test('svc ext install runs nothing the manifest names', async () => {
  const result = await svc.run(['ext', 'install', `${ID}@1.0.0`]);
  expect(result.code, result.stderr).toBe(0);
  expect(existsSync(marker)).toBe(false);
});

test('listing and ext show run nothing, and show names the executable and the probe', async () => {
  expect((await svc.run(['ext', 'list'])).code).toBe(0);
  const shown = await svc.run(['ext', 'show', ID, '--json']);
  expect(shown.code, shown.stderr).toBe(0);
  const description = JSON.parse(shown.stdout) as { requestedPermissions: string[]; cli: { found: string; probe: { args: string[] } } };
  expect(description.requestedPermissions).toEqual(['process:spawn']);
  expect(description.cli.found).toBe('/bin/sh');
  expect(description.cli.probe.args).toEqual(['-c', `env > ${marker}; echo 1.0.0`]);
  expect(existsSync(marker)).toBe(false);
});

test('svc ext dev add of the same package runs nothing', async () => {
  const dir = join(svc.home, '..', `${svc.home.split('/').pop()}-dev-copy`);
  cpSync(join(svc.home, 'extensions/store', ID, '1.0.0'), dir, { recursive: true });
  // The store copy is read-only; the developer's folder is theirs to edit.
  spawnSync('chmod', ['-R', 'u+w', dir]);
  try {
    const file = join(dir, 'package.json');
    rmSync(file, { force: true });
    const pkg = JSON.parse(readFileSync(join(svc.home, 'extensions/store', ID, '1.0.0/package.json'), 'utf8')) as { name: string; svc: { id: string } };
    pkg.name = '@svc-test/svc-provider-sh-probe-dev';
    pkg.svc.id = 'svc-test.sh-probe-dev';
    writeFileSync(file, JSON.stringify(pkg));
    const result = await svc.run(['ext', 'dev', 'add', dir]);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('svc ext update (staging and switching) runs nothing the manifest names', async () => {
  const result = await svc.run(['ext', 'update', `${ID}@1.1.0`]);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toContain(`updated ${ID} 1.0.0 → 1.1.0`);
  expect(existsSync(marker)).toBe(false);
});

test('svc ext enable shows the exact probe and runs nothing before the answer', async () => {
  // No terminal: the prompt is printed, then the question is refused, which is "before the answer".
  const result = await svc.run(['ext', 'enable', ID]);
  expect(result.stderr).toMatch(/^error confirmation_required: /m);
  expect(result.stdout).toContain(`after you confirm, svc runs its version probe: /bin/sh -c 'env > ${marker}; echo 1.0.0'`);
  // A third-party catalog provider runs hardened by default: the prompt says what that enforces.
  expect(result.stdout).toContain('The provider runs hardened');
  expect(result.stdout).toContain('These permissions gate the Host Context calls that start processes');
  expect(existsSync(marker)).toBe(false);
});

test('asked to run as a worker, the prompt says the gates do not confine the provider, and still runs nothing', async () => {
  const result = await svc.run(['ext', 'enable', ID, '--isolation', 'worker']);
  expect(result.stderr).toMatch(/^error confirmation_required: /m);
  expect(result.stdout).toContain('runs as: worker (a thread of svc, full rights)');
  expect(result.stdout).toContain("They do not confine the provider's own code");
  expect(result.stdout).not.toContain('The provider runs hardened');
  expect(existsSync(marker)).toBe(false);
});

test('POST /api/extensions/install runs nothing the manifest names', async () => {
  serve = await startServe(svc);
  const installed = await serve.api('POST', '/api/extensions/install', { id: HTTP_ID, version: '1.0.0' });
  expect(installed.status, JSON.stringify(installed.body)).toBe(201);
  const prompt = await serve.api('GET', `/api/extensions/${HTTP_ID}/permissions`);
  expect(prompt.body.cli).toEqual({ command: '/bin/sh', source: 'known-path', probe: { command: '/bin/sh', args: ['-c', `env > ${marker}; echo 1.0.0`] } });
  expect(existsSync(marker)).toBe(false);
});

test('once confirmed, the probe runs with the scrubbed environment: no SVC_* setting, no catalog token', async () => {
  const result = await svc.run(['ext', 'enable', ID, '--yes']);
  expect(result.code, result.stderr).toBe(0);
  const env = readFileSync(marker, 'utf8');
  expect(env).toMatch(/^PATH=/m);
  expect(env).not.toMatch(/^SVC_/m);
  expect(env).not.toContain(TOKEN);
  expect(env).not.toContain(catalog.ca.caCertFile);
});
