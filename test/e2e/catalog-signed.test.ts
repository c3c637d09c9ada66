// A signed catalog as a user meets it with the real `svc` and `svc serve`: a catalog built and signed
// with the real `pnpm extensions:catalog:build --signing-key`, served over HTTPS with a throwaway CA,
// the key pinned with `svc config set extensions.catalogKeys`; the CLI, its --json and the HTTP
// listing show the key, a refused index is an error with its code and installs nothing, and without
// a pinned key each command says once on stderr that the catalog is unsigned.
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { signCatalogIndex } from '@svc-org/catalog/sign-catalog-index';
import { writeCatalogKeyPair, type WrittenCatalogKeyPair } from '@svc-org/catalog/write-catalog-key-pair';
import { makeCatalogFixtureRepo, runCatalogBuild, serveCatalog, type CatalogServer } from '../support/catalog-fixture.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { startServe, type ServeProcess } from '../support/svc-serve.js';
import { createThrowawayCa } from '../support/throwaway-https.js';

const ID = 'svc-test.catalog-echo';

let scratch: string;
let server: CatalogServer;
let svc: SvcSandbox;
let key: WrittenCatalogKeyPair;
let stranger: WrittenCatalogKeyPair;
let serve: ServeProcess | undefined;

async function installedIds(): Promise<string[]> {
  const result = await svc.run(['ext', 'list', '--json']);
  return (JSON.parse(result.stdout) as Array<{ id: string }>).map((row) => row.id);
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-signed-catalog-e2e-'));
  await mkdir(join(scratch, 'ca'));
  const ca = createThrowawayCa(join(scratch, 'ca'));
  server = await serveCatalog(ca, join(scratch, 'out'));
  await makeCatalogFixtureRepo(join(scratch, 'repo'), [{ folder: 'catalog-echo-v100', id: ID, version: '1.0.0', permissions: ['process:spawn'] }]);
  key = await writeCatalogKeyPair(join(scratch, 'keys/catalog'), []);
  stranger = await writeCatalogKeyPair(join(scratch, 'keys/stranger'), []);
  runCatalogBuild(join(scratch, 'repo'), server.baseUrl, join(scratch, 'out'), ['--signing-key', key.privateKeyFile, '--index-version', '10']);
  svc = createSvcSandbox();
  svc.env.NODE_EXTRA_CA_CERTS = ca.caCertFile;
  svc.env.SVC_EXTENSION_CATALOG_URL = server.baseUrl;
  delete svc.env.SVC_EXTENSION_CATALOG_KEYS;
});

afterAll(async () => {
  if (serve && serve.child.exitCode === null) {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
  await server?.close();
  svc?.cleanup();
  await rm(scratch, { recursive: true, force: true });
});

describe('pinning the catalog key', () => {
  test('svc config set extensions.catalogKeys takes the key the keygen printed and refuses anything else', async () => {
    const refused = await svc.run(['config', 'set', 'extensions.catalogKeys', 'not-a-key']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('error config_value_invalid: extensions.catalogKeys entry 1 is not an Ed25519 public key');
    expect((await svc.run(['config', 'set', 'extensions.catalogKeys', `${stranger.pin},${key.pin}`])).code).toBe(0);
    expect((await svc.run(['config', 'get', 'extensions.catalogKeys'])).stdout.trim()).toBe(`${stranger.pin},${key.pin}`);
    // What a host pins is the one line the keygen printed; the variable also takes the .pub file as is.
    const fromPem = await svc.run(['ext', 'catalog', '--json'], { env: { SVC_EXTENSION_CATALOG_KEYS: readFileSync(key.publicKeyFile, 'utf8') } });
    expect(JSON.parse(fromPem.stdout).signature).toMatchObject({ signed: true, keyId: key.keyId });
    expect((await svc.run(['config', 'set', 'extensions.catalogKeys', key.pin])).code).toBe(0);
    expect((await svc.run(['config', 'get', 'extensions.catalogKeys'])).stdout.trim()).toBe(key.pin);
  });

  test('svc ext catalog and its --json show the key that signed the index, with no note', async () => {
    const listing = await svc.run(['ext', 'catalog']);
    expect(listing.stderr).toBe('');
    expect(listing.code).toBe(0);
    expect(listing.stdout.split('\n')[0]).toMatch(
      new RegExp(`^catalog ${server.baseUrl}/index\\.v1\\.json {2}signed by pinned key ${key.keyId} \\(index version 10, expires \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\)$`),
    );
    const json = await svc.run(['ext', 'catalog', '--json']);
    expect(JSON.parse(json.stdout).signature).toMatchObject({ signed: true, keyId: key.keyId, version: 10 });
  });

  test('an index signed by another key is refused with its code, and nothing is installed', async () => {
    const result = await svc.run(['ext', 'install', `${ID}@1.0.0`], { env: { SVC_EXTENSION_CATALOG_KEYS: stranger.pin } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error index_signature_invalid: the catalog index is signed by key ${key.keyId}, which is not pinned on this host`);
    expect(await installedIds()).not.toContain(ID);
    expect(server.requests.some((request) => request.path.includes('/artifacts/'))).toBe(false);
  });

  test('GET /api/extensions/catalog shows the key; a tampered index answers 502 with its code and installs nothing', async () => {
    serve = await startServe(svc);
    const listed = await serve.api('GET', '/api/extensions/catalog');
    expect(listed.status).toBe(200);
    expect(listed.body.signature).toMatchObject({ signed: true, keyId: key.keyId, version: 10 });

    const original = readFileSync(join(scratch, 'out/index.v1.json'), 'utf8');
    server.override('index.v1.json', Buffer.from(original.replace('"version": "1.0.0"', '"version": "1.0.0" ')));
    const refused = await serve.api('GET', '/api/extensions/catalog');
    expect(refused).toMatchObject({ status: 502, body: { error: { code: 'index_signature_invalid' } } });
    const install = await serve.api('POST', '/api/extensions/install', { id: ID, version: '1.0.0' });
    expect(install).toMatchObject({ status: 502, body: { error: { code: 'index_signature_invalid' } } });
    expect(await installedIds()).not.toContain(ID);
    server.override('index.v1.json', undefined);

    // An older index, signed by the pinned key, replayed after version 10 was seen.
    const older = Buffer.from(original.replace('"version": 10', '"version": 9'));
    server.override('index.v1.json', older);
    server.override('index.v1.json.sig', Buffer.from(JSON.stringify(signCatalogIndex(older, [createPrivateKey(readFileSync(key.privateKeyFile, 'utf8'))]))));
    expect(await serve.api('GET', '/api/extensions/catalog')).toMatchObject({ status: 502, body: { error: { code: 'index_rollback' } } });
    server.override('index.v1.json', undefined);
    server.override('index.v1.json.sig', undefined);

    serve.child.kill('SIGTERM');
    await serve.exited;
  });
});

describe('without a pinned key', () => {
  test('svc ext catalog --json works and says once on stderr that the catalog is unsigned', async () => {
    expect((await svc.run(['config', 'unset', 'extensions.catalogKeys'])).code).toBe(0);
    const result = await svc.run(['ext', 'catalog', '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^note: the catalog is unsigned: no key is pinned[^\n]*\n$/);
    expect(JSON.parse(result.stdout).signature).toEqual({ signed: false, version: 10, expires: expect.any(String) });
    const text = await svc.run(['ext', 'catalog']);
    expect(text.stdout.split('\n')[0]).toBe(`catalog ${server.baseUrl}/index.v1.json  unsigned: no catalog key is pinned on this host`);
  });
});
