// A signed catalog over a real HTTPS server on 127.0.0.1, read by the installer of one host with a
// real database: built and signed with the real `pnpm extensions:catalog:build --signing-key`, then
// served tampered, signed by a stranger, unsigned, replayed, expired and across a key rotation. Every
// refusal leaves the host exactly as it was: nothing downloaded, installed or remembered.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeCatalogKeyPair, type WrittenCatalogKeyPair } from '@svc-org/catalog/write-catalog-key-pair';
import { CatalogInstaller } from '../../../src/features/extensions/catalog-installer/index.js';
import { openHostServices, type HostServices } from '../../../src/host-services.js';
import { errorCodes } from '../../../src/platform/errors/index.js';
import { makeCatalogFixtureRepo, publishSignedIndex, runCatalogBuild, serveCatalog, type CatalogServer } from '../../../../test/support/catalog-fixture.js';
import { FIXTURE_CLIS } from '../../../../test/support/svc-process.js';
import { createThrowawayCa, type ThrowawayCa } from '../../../../test/support/throwaway-https.js';

const ID = 'svc-test.catalog-echo';

let scratch: string;
let ca: ThrowawayCa;
let server: CatalogServer;
let home: string;
let services: HostServices;
let oldKey: WrittenCatalogKeyPair;
let newKey: WrittenCatalogKeyPair;
let strangerKey: WrittenCatalogKeyPair;
/** The index as the build wrote it (version 10, signed by the old key) and its signature file. */
let builtIndex: Buffer;
let builtSignature: Buffer;

function installer(pinned: WrittenCatalogKeyPair[], notices: string[] = []): CatalogInstaller {
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_HOME: home, PATH: `${FIXTURE_CLIS}${delimiter}${process.env.PATH}`, SVC_EXTENSION_CATALOG_URL: server.baseUrl };
  if (pinned.length > 0) env.SVC_EXTENSION_CATALOG_KEYS = pinned.map((pair) => pair.pin).join(',');
  else delete env.SVC_EXTENSION_CATALOG_KEYS;
  const made = new CatalogInstaller({
    db: services.db,
    registry: services.registry,
    runtime: services.runtime,
    logger: services.logger,
    svcHome: home,
    env,
    preflightOptions: () => services.extensions.preflightOptions(),
    hostVersion: services.platform.hostVersion,
    ca: ca.caCert,
  });
  made.onNotice((line) => notices.push(line));
  return made;
}

function builtIndexWith(fields: { version: number; expires?: string }): object {
  return { ...(JSON.parse(builtIndex.toString('utf8')) as object), ...fields };
}

function listDir(...parts: string[]): string[] {
  const dir = join(home, 'extensions', ...parts);
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String).sort() : [];
}

/** Everything a refused index must leave untouched. */
function hostState() {
  return {
    registrations: services.registry.list().map(({ id, version, state }) => ({ id, version, state })),
    versions: services.db.prepare('SELECT id, version, sha256 FROM extension_versions ORDER BY id, version').all(),
    journal: services.db.prepare('SELECT op_id FROM extension_operations').all(),
    accepted: services.db.prepare('SELECT index_url, version, key_id FROM catalog_index_versions').all(),
    store: listDir('store'),
    staging: listDir('staging'),
  };
}

const artifactRequests = () => server.requests.filter((request) => request.path.includes('/artifacts/')).length;

/** Runs `attempt`, expects `code`, and checks that nothing changed and no artifact was fetched. */
async function expectRefusedUnchanged(attempt: () => Promise<unknown>, code: string): Promise<void> {
  const before = hostState();
  const downloads = artifactRequests();
  await expect(attempt()).rejects.toMatchObject({ code });
  expect(hostState()).toEqual(before);
  expect(artifactRequests()).toBe(downloads);
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'svc-signed-catalog-'));
  await mkdir(join(scratch, 'ca'));
  ca = createThrowawayCa(join(scratch, 'ca'));
  server = await serveCatalog(ca, join(scratch, 'out'));
  await makeCatalogFixtureRepo(join(scratch, 'repo'), [
    { folder: 'catalog-echo-v100', id: ID, version: '1.0.0', permissions: ['process:spawn'] },
    { folder: 'catalog-echo-v110', id: ID, version: '1.1.0', permissions: ['process:spawn'] },
  ]);
  oldKey = await writeCatalogKeyPair(join(scratch, 'keys/old'), []);
  newKey = await writeCatalogKeyPair(join(scratch, 'keys/new'), []);
  strangerKey = await writeCatalogKeyPair(join(scratch, 'keys/stranger'), []);
  runCatalogBuild(join(scratch, 'repo'), server.baseUrl, join(scratch, 'out'), ['--signing-key', oldKey.privateKeyFile, '--index-version', '10', '--expires', '30d']);
  builtIndex = readFileSync(join(scratch, 'out/index.v1.json'));
  builtSignature = readFileSync(join(scratch, 'out/index.v1.json.sig'));
  home = mkdtempSync(join(tmpdir(), 'svc-signed-catalog-home-'));
  services = await openHostServices({ env: { ...process.env, SVC_HOME: home }, builtins: false });
});

afterAll(async () => {
  await services?.close();
  await server?.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

describe('a host that pins the catalog key', () => {
  test('accepts the index the build signed, shows the key and remembers the version', async () => {
    const listing = await installer([oldKey]).catalog();
    expect(listing.signature).toEqual({ signed: true, keyId: oldKey.keyId, version: 10, expires: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) });
    expect(listing.extensions.map((extension) => extension.id)).toEqual([ID]);
    expect(hostState().accepted).toEqual([{ index_url: `${server.baseUrl}/index.v1.json`, version: 10, key_id: oldKey.keyId }]);
  });

  test('refuses a tampered index: one changed byte, the signature unchanged', async () => {
    const tampered = Buffer.from(builtIndex.toString('utf8').replace('catalog install test provider 1.1.0', 'catalog install test provider 1.1.1'));
    expect(tampered.equals(builtIndex)).toBe(false);
    server.override('index.v1.json', tampered);
    server.override('index.v1.json.sig', builtSignature);
    await expectRefusedUnchanged(() => installer([oldKey]).install(ID, '1.0.0'), 'index_signature_invalid');
    await expectRefusedUnchanged(() => installer([oldKey]).catalog(), 'index_signature_invalid');
  });

  test('refuses an index signed by a key it does not pin', async () => {
    publishSignedIndex(server, builtIndexWith({ version: 11 }), strangerKey);
    await expectRefusedUnchanged(() => installer([oldKey]).install(ID, '1.0.0'), 'index_signature_invalid');
  });

  test('refuses an index published without a signature', async () => {
    server.override('index.v1.json', undefined);
    server.override('index.v1.json.sig', undefined);
    await rename(join(scratch, 'out/index.v1.json.sig'), join(scratch, 'index.v1.json.sig.away'));
    try {
      await expectRefusedUnchanged(() => installer([oldKey]).install(ID, '1.0.0'), 'index_signature_invalid');
    } finally {
      await rename(join(scratch, 'index.v1.json.sig.away'), join(scratch, 'out/index.v1.json.sig'));
    }
  });

  test('installs from a newer signed index, then refuses the older index replayed', async () => {
    publishSignedIndex(server, builtIndexWith({ version: 12 }), oldKey);
    const steps: string[] = [];
    const { record } = await installer([oldKey]).install(ID, '1.0.0', { onStep: (line) => steps.push(line) });
    expect(record).toMatchObject({ id: ID, version: '1.0.0', state: 'disabled' });
    expect(steps).toContain(`index version 12 signed by pinned key ${oldKey.keyId}, expires ${(builtIndexWith({ version: 12 }) as { expires: string }).expires}`);
    expect(hostState().accepted).toMatchObject([{ version: 12 }]);

    // The index the build signed (version 10) is authentic, but older than what this host has seen.
    server.override('index.v1.json', builtIndex);
    server.override('index.v1.json.sig', builtSignature);
    await expectRefusedUnchanged(() => installer([oldKey]).update(ID, '1.1.0'), 'index_rollback');
    await expectRefusedUnchanged(() => installer([oldKey]).catalog(), 'index_rollback');
  });

  test('refuses an expired index even with a newer version and a valid signature', async () => {
    publishSignedIndex(server, builtIndexWith({ version: 13, expires: '2020-01-01T00:00:00Z' }), oldKey);
    await expectRefusedUnchanged(() => installer([oldKey]).update(ID, '1.1.0'), 'index_expired');
  });

  test('follows a key rotation: the new key signs once both are pinned, and the dropped key no longer counts', async () => {
    // The publisher pins the new key beside the old one on hosts, then signs with the new key alone.
    publishSignedIndex(server, builtIndexWith({ version: 14 }), newKey);
    await expectRefusedUnchanged(() => installer([oldKey]).update(ID, '1.1.0'), 'index_signature_invalid');
    const outcome = await installer([oldKey, newKey]).update(ID, '1.1.0');
    expect(outcome).toMatchObject({ kind: 'switched', from: '1.0.0', to: '1.1.0' });
    expect(hostState().accepted).toMatchObject([{ version: 14, key_id: newKey.keyId }]);

    // During the overlap an index signed with both keys passes a host that pins only the new one.
    publishSignedIndex(server, builtIndexWith({ version: 15 }), oldKey, newKey);
    expect((await installer([newKey]).catalog()).signature).toMatchObject({ signed: true, keyId: newKey.keyId, version: 15 });

    // Once the old key is unpinned, an index signed by it alone is refused.
    publishSignedIndex(server, builtIndexWith({ version: 16 }), oldKey);
    await expectRefusedUnchanged(() => installer([newKey]).update(ID, '1.0.0'), 'index_signature_invalid');
  });
});

describe('a host that pins no key', () => {
  test('keeps working, says the catalog is unsigned once per command, and shows no key', async () => {
    publishSignedIndex(server, builtIndexWith({ version: 3 }), strangerKey);
    const notices: string[] = [];
    const unpinned = installer([], notices);
    const listing = await unpinned.catalog();
    expect(listing.signature).toEqual({ signed: false, version: 3, expires: (builtIndexWith({ version: 3 }) as { expires: string }).expires });
    await unpinned.catalog();
    expect(notices).toEqual([expect.stringMatching(/^the catalog is unsigned: no key is pinned/)]);
    // Nothing is remembered for an index whose signature was not checked.
    expect(hostState().accepted).toMatchObject([{ version: 15 }]);
  });
});

test('refused indexes answer 502 over HTTP: the catalog server sent something this host does not trust', () => {
  for (const code of ['index_signature_invalid', 'index_rollback', 'index_expired']) expect(errorCodes()[code]?.status).toBe(502);
});
