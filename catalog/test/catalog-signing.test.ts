// Signing a catalog: the keygen, the build's --signing-key and the checks on the key file. Keys are
// made in temp folders by each test; none is ever part of the repository.
import { spawnSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { catalogKeyId } from '@svc-org/extension-format/catalog';
import { buildCatalog, parseIndexExpiry, writeCatalogKeyPair, type CatalogSignatureFile } from '../src/index.js';
import { BUILD_PROVIDER_SCRIPT, makeFixtureRepo, REPO_ROOT } from './make-fixture-repo.js';

let scratch: string;
let root: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-catalog-signing-'));
  root = join(scratch, 'repo');
  await makeFixtureRepo(root, [{ folder: 'alpha', id: 'acme.alpha', version: '1.0.0' }]);
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

function pnpm(script: string, ...args: string[]) {
  return spawnSync('pnpm', ['--silent', script, '--', ...args], { cwd: REPO_ROOT, encoding: 'utf8' });
}

const build = (name: string, extra: Partial<Parameters<typeof buildCatalog>[0]> = {}) =>
  buildCatalog({ root, baseUrl: 'https://downloads.test/svc', outputDir: join(scratch, name), buildProviderScript: BUILD_PROVIDER_SCRIPT, skipChecks: true, ...extra });

describe('pnpm extensions:catalog:keygen', () => {
  test('writes an owner-only Ed25519 private key and its public key, and prints the key id and the pin line', async () => {
    const run = pnpm('extensions:catalog:keygen', '--out', join(scratch, 'keys/main'));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const publicKey = createPublicKey(await readFile(join(scratch, 'keys/main.pub'), 'utf8'));
    expect(publicKey.asymmetricKeyType).toBe('ed25519');
    expect((await stat(join(scratch, 'keys/main.key'))).mode & 0o777).toBe(0o600);
    expect(run.stdout).toContain(`key id       ${catalogKeyId(publicKey)}`);
    expect(run.stdout).toContain(`svc config set extensions.catalogKeys ${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`);
  });

  test('never overwrites a key', async () => {
    const before = await readFile(join(scratch, 'keys/main.key'), 'utf8');
    const run = pnpm('extensions:catalog:keygen', '--out', join(scratch, 'keys/main'));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('error catalog_key_file_exists');
    expect(await readFile(join(scratch, 'keys/main.key'), 'utf8')).toBe(before);
  });

  test('refuses to write a key into the repository', async () => {
    const run = pnpm('extensions:catalog:keygen', '--out', join(REPO_ROOT, 'catalog-test-key'));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('error catalog_signing_key_in_repository');
    await expect(stat(join(REPO_ROOT, 'catalog-test-key.key'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('a signed build', () => {
  test('pnpm extensions:catalog:build --signing-key signs the exact index bytes with every key, beside a version and an expiry', async () => {
    const second = await writeCatalogKeyPair(join(scratch, 'keys/next'), [root]);
    const run = pnpm('extensions:catalog:build', '--root', root, '--skip-checks', '--base-url', 'https://downloads.test/svc', '--output', join(scratch, 'signed'),
      '--signing-key', join(scratch, 'keys/main.key'), '--signing-key', second.privateKeyFile, '--index-version', '17', '--expires', '2099-01-01T00:00:00Z');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const bytes = await readFile(join(scratch, 'signed/index.v1.json'));
    const index = JSON.parse(bytes.toString('utf8')) as { schemaVersion: number; version: number; expires: string };
    expect(Object.keys(index)).toEqual(['schemaVersion', 'version', 'expires', 'extensions']);
    expect(index).toMatchObject({ version: 17, expires: '2099-01-01T00:00:00Z' });

    const signature = JSON.parse(await readFile(join(scratch, 'signed/index.v1.json.sig'), 'utf8')) as CatalogSignatureFile;
    const keys = [createPublicKey(await readFile(join(scratch, 'keys/main.pub'), 'utf8')), createPublicKey(await readFile(second.publicKeyFile, 'utf8'))];
    expect(signature).toMatchObject({ schemaVersion: 1, algorithm: 'ed25519' });
    expect(signature.signatures.map((entry) => entry.keyId)).toEqual(keys.map(catalogKeyId));
    signature.signatures.forEach((entry, i) => expect(verify(null, bytes, keys[i]!, Buffer.from(entry.signature, 'base64'))).toBe(true));
    const changed = Buffer.from(bytes.toString('utf8').replace('"version": 17', '"version": 18'));
    expect(verify(null, changed, keys[0]!, Buffer.from(signature.signatures[0]!.signature, 'base64'))).toBe(false);
    expect(run.stdout).toContain(`signed by key ${keys.map(catalogKeyId).join(', key ')}`);
  });

  test('without a key the index is written unsigned, versioned with the build time and expiring in 30 days', async () => {
    const now = new Date('2030-05-01T12:00:00.250Z');
    const result = await build('unsigned', { now });
    expect(result.signedBy).toEqual([]);
    expect(result.index).toMatchObject({ version: Math.floor(now.getTime() / 1000), expires: '2030-05-31T12:00:00Z' });
    expect(await readdir(join(scratch, 'unsigned'))).toEqual(['artifacts', 'index.v1.json']);
  });

  test('a key readable by others is refused before anything is built', async () => {
    const pair = await writeCatalogKeyPair(join(scratch, 'keys/loose'), [root]);
    await chmod(pair.privateKeyFile, 0o644);
    await expect(build('loose', { signingKeys: [pair.privateKeyFile] })).rejects.toMatchObject({ code: 'catalog_signing_key_exposed' });
    await expect(stat(join(scratch, 'loose'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('a key inside the repository being built is refused', async () => {
    const inside = join(root, 'signing.key');
    const { privateKey } = generateKeyPairSync('ed25519');
    await writeFile(inside, privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, { mode: 0o600 });
    await expect(build('inside', { signingKeys: [inside] })).rejects.toMatchObject({ code: 'catalog_signing_key_in_repository' });
    await rm(inside);
  });

  test('a key that is not Ed25519 is refused', async () => {
    const file = join(scratch, 'keys/ec.key');
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    await writeFile(file, privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, { mode: 0o600 });
    await expect(build('ec', { signingKeys: [file] })).rejects.toMatchObject({ code: 'catalog_signing_key_invalid', message: expect.stringContaining('a ec key') });
  });

  test('an index version that is not a positive integer is refused', async () => {
    await expect(build('bad-version', { indexVersion: '0' })).rejects.toMatchObject({ code: 'catalog_index_version_invalid' });
    await expect(build('bad-version', { indexVersion: '1.5' })).rejects.toMatchObject({ code: 'catalog_index_version_invalid' });
  });
});

describe('the expiry of an index', () => {
  const now = new Date('2030-01-01T00:00:00Z');
  test('is a lifetime in days or hours from the build, or a UTC time in the future', () => {
    expect(parseIndexExpiry('30d', now)).toBe('2030-01-31T00:00:00Z');
    expect(parseIndexExpiry('12h', now)).toBe('2030-01-01T12:00:00Z');
    expect(parseIndexExpiry('2030-06-01T08:30:00Z', now)).toBe('2030-06-01T08:30:00Z');
  });

  test('in the past, or in any other form, is refused', () => {
    expect(() => parseIndexExpiry('2029-12-31T23:59:59Z', now)).toThrow(expect.objectContaining({ code: 'catalog_expires_invalid' }));
    for (const value of ['0d', '30', '1w', '2030-06-01', 'tomorrow']) {
      expect(() => parseIndexExpiry(value, now), value).toThrow(expect.objectContaining({ code: 'catalog_expires_invalid' }));
    }
  });
});
