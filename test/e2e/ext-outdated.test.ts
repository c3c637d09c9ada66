// `svc ext outdated` and `svc ext update` without a version, as a user meets them: a signed catalog
// built with the real build and served over HTTPS lists compatible versions and versions this host
// cannot run (a newer svc, another major of the CLI); the newest compatible exact version is shown
// with its permission changes before anything is fetched, then installed; `--all` does each in turn.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { writeCatalogKeyPair } from '@svc-org/catalog/write-catalog-key-pair';
import { makeCatalogFixtureRepo, runCatalogBuild, serveCatalog, type CatalogServer } from '../support/catalog-fixture.js';
import { copyFixtureProvider } from '../support/copy-fixture-provider.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { createThrowawayCa } from '../support/throwaway-https.js';

const ID = 'svc-test.update-echo';
const OTHER = 'svc-test.other-echo';
const HOST_VERSION = '0.3.0';

let scratch: string;
let server: CatalogServer;
let svc: SvcSandbox;

interface Outdated {
  id: string;
  installed: string;
  pending: string | null;
  cliVersion: string | null;
  newestCompatible: { version: string; permissions: { added: string[]; dropped: string[] } } | null;
  newest: { version: string; compatible: boolean; incompatible: Array<{ check: string; range: string; have: string }> } | null;
  updateAvailable: boolean;
}

async function outdated(): Promise<{ signature: { signed: boolean }; extensions: Outdated[] }> {
  const result = await svc.run(['ext', 'outdated', '--json']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { signature: { signed: boolean }; extensions: Outdated[] };
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-outdated-e2e-'));
  await mkdir(join(scratch, 'ca'));
  const ca = createThrowawayCa(join(scratch, 'ca'));
  server = await serveCatalog(ca, join(scratch, 'out'));
  const spawn = ['process:spawn'];
  await makeCatalogFixtureRepo(join(scratch, 'repo'), [
    { folder: 'update-echo-v100', id: ID, version: '1.0.0', permissions: spawn },
    { folder: 'update-echo-v110', id: ID, version: '1.1.0', permissions: spawn },
    { folder: 'update-echo-v120', id: ID, version: '1.2.0', permissions: [...spawn, 'network:provider'] },
    // The installed CLI answers 1.2.3: a version for its next major is not compatible.
    { folder: 'update-echo-v130', id: ID, version: '1.3.0', permissions: spawn, compatibility: { svc: '>=0.3.0 <1.0.0', node: '>=20', cli: '>=2.0.0 <3.0.0' } },
    { folder: 'update-echo-v200', id: ID, version: '2.0.0', permissions: spawn, compatibility: { svc: '>=9.0.0', node: '>=20' } },
    { folder: 'other-echo-v100', id: OTHER, version: '1.0.0', permissions: spawn },
    { folder: 'other-echo-v110', id: OTHER, version: '1.1.0', permissions: spawn },
  ]);
  const key = await writeCatalogKeyPair(join(scratch, 'keys/catalog'), []);
  runCatalogBuild(join(scratch, 'repo'), server.baseUrl, join(scratch, 'out'), ['--signing-key', key.privateKeyFile]);
  svc = createSvcSandbox();
  svc.env.NODE_EXTRA_CA_CERTS = ca.caCertFile;
  svc.env.SVC_EXTENSION_CATALOG_URL = server.baseUrl;
  expect((await svc.run(['config', 'set', 'extensions.catalogKeys', key.pin])).code).toBe(0);
  for (const spec of [`${ID}@1.0.0`, `${OTHER}@1.0.0`]) expect((await svc.run(['ext', 'install', spec])).code).toBe(0);
  expect((await svc.run(['ext', 'enable', ID, '--yes'])).code).toBe(0);
}, 240_000);

afterAll(async () => {
  await server?.close();
  svc?.cleanup();
  await rm(scratch, { recursive: true, force: true });
});

test('svc ext outdated lists the newest compatible version and why the newest is not', async () => {
  const list = await outdated();
  expect(list.signature.signed).toBe(true);
  const update = list.extensions.find((e) => e.id === ID)!;
  expect(update).toEqual({
    id: ID,
    installed: '1.0.0',
    pending: null,
    // Enabled with process:spawn: its CLI was probed, so 1.3.0 (for CLI 2.x) is not offered.
    cliVersion: '1.2.3',
    newestCompatible: { version: '1.2.0', permissions: { added: ['network:provider'], dropped: [] } },
    newest: { version: '2.0.0', permissions: { added: [], dropped: [] }, compatible: false, incompatible: [{ check: 'svc', range: '>=9.0.0', have: HOST_VERSION }] },
    updateAvailable: true,
  });
  // Not enabled: its CLI is not probed, the CLI ranges are not checked.
  expect(list.extensions.find((e) => e.id === OTHER)).toMatchObject({ installed: '1.0.0', cliVersion: null, newestCompatible: { version: '1.1.0' }, updateAvailable: true });

  const text = await svc.run(['ext', 'outdated']);
  expect(text.stdout).toMatch(new RegExp(`${ID.replace('.', '\\.')}\\s+1\\.0\\.0\\s+1\\.2\\.0\\s+2\\.0\\.0\\s+update available: svc ext update ${ID.replace('.', '\\.')}; 2\\.0\\.0 needs svc >=9\\.0\\.0 \\(this host has ${HOST_VERSION}\\)`));
}, 120_000);

test('svc ext update <id> resolves the newest compatible exact version, shows it and its permission change first, then installs exactly it', async () => {
  const result = await svc.run(['ext', 'update', ID]);
  expect(result.code, result.stderr).toBe(0);
  const lines = result.stdout.split('\n');
  expect(lines[0]).toBe(`${ID}: 1.0.0 → 1.2.0 (newest compatible with this svc, node ${process.versions.node}, cli 1.2.3); permissions: + network:provider (asks for confirmation)`);
  const download = lines.findIndex((line) => line.startsWith(`downloading ${ID} 1.2.0`));
  expect(download).toBeGreaterThan(0);
  expect(result.stdout).toContain('+ network:provider');
  expect(result.stdout).toContain(`${ID} 1.0.0 keeps serving`);
  expect((await outdated()).extensions.find((e) => e.id === ID)).toMatchObject({ installed: '1.0.0', pending: '1.2.0' });

  // Asked again, it says the update waits for confirmation, and fetches nothing.
  const again = await svc.run(['ext', 'update', ID]);
  expect(again.stdout).toBe(`${ID} 1.2.0 is staged and waits for your confirmation: svc ext enable ${ID}\n`);
}, 120_000);

test('svc ext update --all updates each in turn and reports each outcome', async () => {
  const result = await svc.run(['ext', 'update', '--all', '--json']);
  expect(result.code, result.stderr).toBe(0);
  const { results } = JSON.parse(result.stdout) as { results: Array<{ id: string; outcome: string; from?: string; to?: string }> };
  expect(results).toHaveLength(2);
  expect(results).toEqual(
    expect.arrayContaining([
      { id: OTHER, outcome: 'switched', from: '1.0.0', to: '1.1.0' },
      { id: ID, outcome: 'pending', from: '1.0.0', to: '1.2.0' },
    ]),
  );
  expect(result.stderr).toContain(`${OTHER}: 1.0.0 → 1.1.0`);

  const now = await svc.run(['ext', 'update', OTHER]);
  expect(now.stdout).toBe(`${OTHER} 1.1.0 is the newest compatible version\n`);
  const list = await svc.run(['ext', 'list', '--json']);
  expect((JSON.parse(list.stdout) as Array<{ id: string; version: string }>).find((e) => e.id === OTHER)!.version).toBe('1.1.0');
}, 120_000);

test('a provider that is not from the catalog is refused with its code', async () => {
  expect((await svc.run(['ext', 'dev', 'add', copyFixtureProvider('echo')])).code).toBe(0);
  const result = await svc.run(['ext', 'update', 'svc-test.echo']);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('error not_a_catalog_extension: svc-test.echo is a dev extension');
  const both = await svc.run(['ext', 'update', '--all', ID]);
  expect(both.code).toBe(2);
}, 60_000);
