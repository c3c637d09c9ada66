// The installer inside one long-running host (as `svc serve` runs it): the real runtime, database and
// a real catalog over HTTPS. Covers what separate CLI processes cannot show: an update switching the
// runtime to fresh threads while a call keeps running on the old ones, the old version serving while
// an update waits, the journal refusing concurrent operations, and the sweep after a dead process.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { CliStreamEvent } from '@svc-org/ai-sdk';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { CatalogInstaller } from '../../../src/features/extensions/catalog-installer/index.js';
import { openHostServices, type HostServices } from '../../../src/host-services.js';
import { startFixtureCatalog, type FixtureCatalog } from '../../../../test/support/catalog-fixture.js';
import { FIXTURE_CLIS, waitFor } from '../../../../test/support/svc-process.js';
import { startHttpsServer, type HttpsTestServer } from '../../../../test/support/throwaway-https.js';

const ID = 'svc-test.catalog-echo';
const TOKEN = 'catalog-token-only-for-its-origin';

let catalog: FixtureCatalog;
let home: string;
let env: NodeJS.ProcessEnv;
let services: HostServices;
let installer: CatalogInstaller;

function makeInstaller(overrides: NodeJS.ProcessEnv = {}): CatalogInstaller {
  return new CatalogInstaller({
    db: services.db,
    registry: services.registry,
    runtime: services.runtime,
    logger: services.logger,
    svcHome: services.svcHome,
    env: { ...env, ...overrides },
    preflightOptions: () => services.extensions.preflightOptions(),
    hostVersion: services.platform.hostVersion,
    ca: catalog.ca.caCert,
  });
}

async function text(prompt: string): Promise<string> {
  const target = await services.extensions.prepare(ID);
  let out = '';
  for await (const event of services.extensions.stream(target, { prompt, cwd: home })) if (event.type === 'text') out += event.text;
  return out;
}

async function collect(events: AsyncIterable<CliStreamEvent>): Promise<string> {
  let out = '';
  for await (const event of events) if (event.type === 'text') out += event.text;
  return out;
}

function journalRows(): Array<{ op_id: string; pid: number }> {
  return services.db.prepare('SELECT op_id, pid FROM extension_operations').all() as Array<{ op_id: string; pid: number }>;
}

beforeAll(async () => {
  catalog = await startFixtureCatalog([
    { folder: 'catalog-echo-v100', id: ID, version: '1.0.0', permissions: ['process:spawn'] },
    { folder: 'catalog-echo-v110', id: ID, version: '1.1.0', permissions: ['process:spawn'] },
    { folder: 'catalog-echo-v200', id: ID, version: '2.0.0', permissions: ['process:spawn', 'network:provider'] },
  ]);
  home = mkdtempSync(join(tmpdir(), 'svc-catalog-installer-'));
  env = { ...process.env, SVC_HOME: home, PATH: `${FIXTURE_CLIS}${delimiter}${process.env.PATH}`, SVC_EXTENSION_CATALOG_URL: catalog.server.baseUrl };
  services = await openHostServices({ env, builtins: false });
  installer = makeInstaller();
});

afterAll(async () => {
  await services?.close();
  await catalog?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('versions switch inside one running host', () => {
  test('an update with the same permissions sends new calls to fresh threads while a running call finishes on the old version', async () => {
    await installer.install(ID, '1.0.0');
    await services.extensions.enable(ID, async () => true);
    const gate = join(home, 'gate');
    // On a failure below too: the waiting call ends rather than outliving the test.
    onTestFinished(() => writeFileSync(gate, ''));
    const running = collect(services.extensions.stream(await services.extensions.prepare(ID), { prompt: `wait-for ${gate}`, cwd: home }));
    await waitFor(() => existsSync(`${gate}.started`), 10_000, 'the running call');

    const outcome = await installer.update(ID, '1.1.0');
    expect(outcome).toMatchObject({ kind: 'switched', from: '1.0.0', to: '1.1.0' });
    expect(await text('next')).toBe('v1.1.0\nnext\n');
    writeFileSync(gate, '');
    expect(await running).toBe('v1.0.0 waited\n');
  });

  test('an update with new permissions leaves the current version serving until it is confirmed', async () => {
    const outcome = await installer.update(ID, '2.0.0');
    expect(outcome).toMatchObject({ kind: 'pending', current: '1.1.0', pending: '2.0.0', added: ['network:provider'], dropped: [] });
    expect(services.registry.get(ID)).toMatchObject({ state: 'needs-confirmation', version: '1.1.0', pendingVersion: '2.0.0' });
    expect(await text('meanwhile')).toBe('v1.1.0\nmeanwhile\n');

    const prompt = await services.extensions.permissionPrompt(ID);
    expect(prompt).toMatchObject({ version: '2.0.0', currentVersion: '1.1.0', dropped: [] });
    expect(prompt.requested.map((p) => [p.name, p.new])).toEqual([['network:provider', true], ['process:spawn', false]]);

    await expect(services.extensions.enable(ID, async () => false)).rejects.toMatchObject({ code: 'confirmation_declined' });
    expect(await text('declined')).toBe('v1.1.0\ndeclined\n');

    const enabled = await services.extensions.enable(ID, async () => true);
    expect(enabled).toMatchObject({ version: '2.0.0', previousVersion: '1.1.0', state: 'enabled', grantedPermissions: ['network:provider', 'process:spawn'] });
    expect(await text('confirmed')).toBe('v2.0.0\nconfirmed\n');
  });

  test('a version the catalog now describes with other bytes is refused as not immutable', async () => {
    services.db.prepare("UPDATE extension_versions SET sha256 = ? WHERE id = ? AND version = '1.1.0'").run('0'.repeat(64), ID);
    await expect(installer.update(ID, '1.1.0')).rejects.toMatchObject({ code: 'artifact_not_immutable' });
    expect(services.registry.get(ID)).toMatchObject({ version: '2.0.0', state: 'enabled' });
    expect(journalRows()).toEqual([]);
  });
});

describe('the install journal', () => {
  test('refuses a second operation on an extension while a live process holds it, and the sweep leaves it alone', async () => {
    // This test process is alive: its row stands for an operation in progress elsewhere.
    const held = makeInstaller();
    services.db
      .prepare("INSERT INTO extension_operations (op_id, kind, extension_id, version, pid, pid_start_time, started_at) VALUES ('held-op', 'update', ?, '1.1.0', ?, NULL, ?)")
      .run(ID, process.pid, new Date().toISOString());
    mkdirSync(join(home, 'extensions', 'staging', 'held-op'), { recursive: true });
    await expect(held.rollback(ID)).rejects.toMatchObject({ code: 'extension_operation_in_progress' });
    await expect(held.uninstall(ID)).rejects.toMatchObject({ code: 'extension_operation_in_progress' });
    const report = await held.recover();
    expect(report.interrupted).toEqual([]);
    expect(existsSync(join(home, 'extensions', 'staging', 'held-op'))).toBe(true);
    services.db.prepare("DELETE FROM extension_operations WHERE op_id = 'held-op'").run();
    rmSync(join(home, 'extensions', 'staging', 'held-op'), { recursive: true });
  });

  test('the sweep drops the row of a dead process, its staging folder and store folders nothing refers to', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout);
    services.db
      .prepare("INSERT INTO extension_operations (op_id, kind, extension_id, version, pid, pid_start_time, started_at) VALUES ('dead-op', 'install', 'svc-test.other', '1.0.0', ?, 'linux:1', ?)")
      .run(deadPid, new Date().toISOString());
    mkdirSync(join(home, 'extensions', 'staging', 'dead-op', 'package'), { recursive: true });
    mkdirSync(join(home, 'extensions', 'store', 'svc-test.other', '1.0.0', 'dist'), { recursive: true });
    mkdirSync(join(home, 'extensions', 'store', ID, '0.9.0'), { recursive: true });

    const report = await makeInstaller().recover();
    expect(report.interrupted.map((entry) => entry.opId)).toEqual(['dead-op']);
    // 1.0.0 too: confirming the update to 2.0.0 dropped its row (two versions back), and its files
    // wait for a start, when no call of this process can still be running on them.
    expect(report.removed.sort()).toEqual(['staging/dead-op', `store/${ID}/0.9.0`, `store/${ID}/1.0.0`, 'store/svc-test.other/1.0.0'].sort());
    expect(journalRows()).toEqual([]);
    expect(existsSync(join(home, 'extensions', 'store', 'svc-test.other'))).toBe(false);
    // The versions the database names are kept.
    expect(existsSync(join(home, 'extensions', 'store', ID, '2.0.0'))).toBe(true);
    expect(existsSync(join(home, 'extensions', 'store', ID, '1.1.0'))).toBe(true);
    expect(await text('swept')).toBe('v2.0.0\nswept\n');
  });
});

describe('the catalog token', () => {
  let elsewhere: HttpsTestServer;
  beforeAll(async () => {
    // An artifact hosted on another origin than the index: it must never receive the catalog's token.
    const artifact = readFileSync(join(catalog.scratch, 'out/artifacts', ID, '1.0.0', `${ID}-1.0.0.tgz`));
    elsewhere = await startHttpsServer(catalog.ca, (_request, response) => {
      response.setHeader('content-length', artifact.length);
      response.end(artifact);
    });
    const index = JSON.parse(readFileSync(join(catalog.scratch, 'out/index.v1.json'), 'utf8'));
    const entry = { ...index.extensions[0], id: 'svc-test.catalog-echo', versions: index.extensions[0].versions.filter((v: { version: string }) => v.version === '1.0.0') };
    entry.versions[0].artifact.url = `${elsewhere.origin}/artifacts/${ID}-1.0.0.tgz`;
    catalog.server.override('split/index.v1.json', Buffer.from(JSON.stringify({ schemaVersion: 1, extensions: [entry] })));
    catalog.server.requireToken(TOKEN);
  });
  afterAll(async () => {
    catalog.server.requireToken(undefined);
    await elsewhere.close();
  });

  test('is sent to the index origin only, never to an artifact host elsewhere', async () => {
    await makeInstaller().uninstall(ID);
    const split = makeInstaller({ SVC_EXTENSION_CATALOG_URL: `${catalog.server.baseUrl}/split/index.v1.json`, SVC_EXTENSION_CATALOG_TOKEN: TOKEN });
    const before = catalog.server.requests.length;
    await split.install(ID, '1.0.0');
    expect(catalog.server.requests.slice(before).map((r) => [r.path, r.headers.authorization])).toEqual([['/catalog/split/index.v1.json', `Bearer ${TOKEN}`]]);
    expect(elsewhere.requests).toHaveLength(1);
    expect(elsewhere.requests[0]!.headers.authorization).toBeUndefined();
    expect(services.registry.get(ID)).toMatchObject({ version: '1.0.0', source: 'catalog', state: 'disabled' });
  });
});
