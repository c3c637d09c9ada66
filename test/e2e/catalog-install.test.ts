// The whole catalog path as a user drives it with the real `svc`: a catalog built with the real
// `pnpm extensions:catalog:build` (fixture providers, --skip-checks) and served over HTTPS with a
// throwaway CA (trusted through NODE_EXTRA_CA_CERTS); catalog, install, enable with confirmation, a
// query through the installed provider, an update with the same permissions while a call runs on the
// old version, an update with new permissions, rollback, uninstall.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import * as pty from 'node-pty';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { makeCatalogFixtureRepo, runCatalogBuild, serveCatalog, type CatalogServer } from '../support/catalog-fixture.js';
import { copyFixtureProvider } from '../support/copy-fixture-provider.js';
import { createSvcSandbox, SVC_BIN, waitFor, type SvcSandbox } from '../support/svc-process.js';
import { createThrowawayCa } from '../support/throwaway-https.js';
import { ServerFile } from '@svc-org/host/client/server-file';

const ID = 'svc-test.catalog-echo';
/** No catalog key is pinned here: each catalog command says so once on stderr, and works as before. */
const UNSIGNED_NOTE = /^note: the catalog is unsigned: [^\n]+\n$/;
const TOKEN = 'catalog-Token-5b2e91d0-never-shown';

interface ListedExtension {
  id: string;
  version: string;
  source: string;
  state: string;
  permissions: string[];
  path: string;
  pendingVersion?: string;
  previousVersion?: string;
}

let scratch: string;
let server: CatalogServer;
let svc: SvcSandbox;

async function list(): Promise<ListedExtension[]> {
  const result = await svc.run(['ext', 'list', '--json']);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as ListedExtension[];
}

async function installed(): Promise<ListedExtension | undefined> {
  return (await list()).find((row) => row.id === ID);
}

async function query(prompt: string) {
  return svc.run(['query', '--provider', ID, prompt]);
}

/** Whether the database holds a registration of `id`, read without starting `svc`. */
function registered(id: string): boolean {
  const db = new Database(join(svc.home, 'svc.db'), { readonly: true });
  try {
    return Boolean(db.prepare('SELECT 1 FROM extensions WHERE id = ?').get(id));
  } finally {
    db.close();
  }
}

function storeDir(...parts: string[]): string {
  return join(svc.home, 'extensions', 'store', ...parts);
}

function staging(): string[] {
  const dir = join(svc.home, 'extensions', 'staging');
  return existsSync(dir) ? readdirSync(dir) : [];
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-catalog-e2e-'));
  await mkdir(join(scratch, 'ca'));
  const ca = createThrowawayCa(join(scratch, 'ca'));
  // The server starts first: the build needs its base URL.
  server = await serveCatalog(ca, join(scratch, 'out'));
  await makeCatalogFixtureRepo(join(scratch, 'repo'), [
    { folder: 'catalog-echo-v100', id: ID, version: '1.0.0', permissions: ['process:spawn'] },
    { folder: 'catalog-echo-v110', id: ID, version: '1.1.0', permissions: ['process:spawn'] },
    { folder: 'catalog-echo-v200', id: ID, version: '2.0.0', permissions: ['process:spawn', 'network:provider'] },
    { folder: 'future-echo', id: 'svc-test.future-echo', version: '1.0.0', permissions: ['process:spawn'], compatibility: { svc: '>=9.0.0', node: '>=20' } },
  ]);
  runCatalogBuild(join(scratch, 'repo'), server.baseUrl, join(scratch, 'out'));
  svc = createSvcSandbox();
  svc.env.NODE_EXTRA_CA_CERTS = ca.caCertFile;
  svc.env.SVC_EXTENSION_CATALOG_TOKEN = TOKEN;
  delete svc.env.SVC_EXTENSION_CATALOG_URL;
  server.requireToken(TOKEN);
});

afterAll(async () => {
  await server?.close();
  svc?.cleanup();
  await rm(scratch, { recursive: true, force: true });
});

describe('configuring the catalog', () => {
  test('without a catalog URL, the catalog commands say how to set one', async () => {
    const result = await svc.run(['ext', 'catalog']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error catalog_not_configured:');
    expect(result.stderr).toContain('svc config set extensions.catalogUrl');
  });

  test('svc config refuses an http: catalog URL and an unknown key', async () => {
    const http = await svc.run(['config', 'set', 'extensions.catalogUrl', 'http://127.0.0.1/catalog']);
    expect(http.code).toBe(1);
    expect(http.stderr).toContain('error https_required:');
    const unknown = await svc.run(['config', 'set', 'extensions.catalogURL', server.baseUrl]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('error config_key_unknown:');
    const bound = await svc.run(['config', 'set', 'extensions.maxArtifactBytes', 'lots']);
    expect(bound.code).toBe(1);
    expect(bound.stderr).toContain('error config_value_invalid: extensions.maxArtifactBytes must be a positive integer');
  });

  test('svc config set|get|unset stores the catalog URL', async () => {
    expect((await svc.run(['config', 'set', 'extensions.catalogUrl', server.baseUrl])).code).toBe(0);
    const got = await svc.run(['config', 'get', 'extensions.catalogUrl']);
    // The base URL is stored as the index URL svc reads.
    expect(got.stdout.trim()).toBe(`${server.baseUrl.replace(/\/$/, '')}/index.v1.json`);
    expect((await svc.run(['config', 'set', 'extensions.maxEntries', '100'])).code).toBe(0);
    expect((await svc.run(['config', 'unset', 'extensions.maxEntries'])).stdout).toContain('extensions.maxEntries unset');
    const missing = await svc.run(['config', 'get', 'extensions.maxEntries']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('error config_not_set:');
  });

  test('SVC_EXTENSION_CATALOG_URL wins over the system config, and must be https:', async () => {
    const result = await svc.run(['ext', 'catalog'], { env: { SVC_EXTENSION_CATALOG_URL: 'http://127.0.0.1:1/elsewhere' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error https_required: SVC_EXTENSION_CATALOG_URL URL must use https:');
  });

  test('the bearer token is sent to the catalog and never shown, even when the catalog refuses it', async () => {
    const refused = await svc.run(['ext', 'catalog'], { env: { SVC_EXTENSION_CATALOG_TOKEN: `${TOKEN}-wrong` } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('error catalog_fetch_failed:');
    expect(refused.stderr).toContain('HTTP 401');
    expect(refused.stdout + refused.stderr).not.toContain(TOKEN);
    const before = server.requests.length;
    expect((await svc.run(['ext', 'catalog'])).code).toBe(0);
    expect(server.requests.slice(before).every((request) => request.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });
});

describe('install, enable, query', () => {
  test('svc ext catalog shows versions, permissions and compatibility, newest first', async () => {
    const result = await svc.run(['ext', 'catalog']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`catalog ${server.baseUrl}/index.v1.json`);
    const lines = result.stdout.split('\n');
    expect(lines[1]).toMatch(/^ID\s+VERSION\s+INSTALLED\s+PERMISSIONS\s+COMPATIBILITY$/);
    expect(lines[2]).toMatch(new RegExp(`^${ID.replace('.', '\\.')}\\s+2\\.0\\.0\\s+process:spawn, network:provider\\s+svc >=0\\.3\\.0 <1\\.0\\.0; node >=20; cli >=1\\.0\\.0 <2\\.0\\.0$`));
    expect(lines[3]).toMatch(/^\s+1\.1\.0\s+process:spawn\s+svc /);
    expect(lines[4]).toMatch(/^\s+1\.0\.0\s+process:spawn\s+svc /);

    const json = JSON.parse((await svc.run(['ext', 'catalog', '--json'])).stdout);
    const entry = json.extensions.find((e: { id: string }) => e.id === ID);
    expect(entry.installed).toBeNull();
    expect(entry.versions.map((v: { version: string }) => v.version)).toEqual(['2.0.0', '1.1.0', '1.0.0']);
    expect(entry.versions[0]).toMatchObject({ permissions: ['process:spawn', 'network:provider'], compatible: { svc: true, node: true } });
    expect(JSON.stringify(json)).not.toContain('https://');
  });

  test('an extension for another host version is marked in the catalog and refused by preflight in staging', async () => {
    const listing = await svc.run(['ext', 'catalog']);
    expect(listing.stdout).toMatch(/svc-test\.future-echo\s+1\.0\.0\s+process:spawn\s+svc >=9\.0\.0; node >=20 {2}\[incompatible: svc\]/);
    const result = await svc.run(['ext', 'install', 'svc-test.future-echo@1.0.0']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/extracted \d+ entries into staging/);
    expect(result.stderr).toContain('error host_incompatible: svc-test.future-echo 1.0.0 failed preflight:');
    expect((await list()).find((row) => row.id === 'svc-test.future-echo')).toBeUndefined();
    expect(staging()).toEqual([]);
    expect(existsSync(storeDir('svc-test.future-echo'))).toBe(false);
  });

  test.each([
    [`${ID}@latest`, 'exact_version_required'],
    [`${ID}@^1.0.0`, 'exact_version_required'],
    [`${ID}@1.x`, 'exact_version_required'],
    [`${ID}@>=1.0.0`, 'exact_version_required'],
    [`${ID}@v1.0.0`, 'exact_version_required'],
    [ID, 'exact_version_required'],
    [`${ID}@9.9.9`, 'version_not_in_catalog'],
    ['svc-test.nothing@1.0.0', 'extension_not_in_catalog'],
    ['../../etc@1.0.0', 'release_spec_invalid'],
  ])('svc ext install %s is refused with %s', async (spec, code) => {
    const result = await svc.run(['ext', 'install', spec]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error ${code}:`);
    // Read from the database: the listing itself is checked by the tests around this one.
    expect(registered(ID)).toBe(false);
    expect(staging()).toEqual([]);
  });

  test('svc ext install <id>@<version> downloads, verifies, stages and installs it disabled and read-only', async () => {
    const result = await svc.run(['ext', 'install', `${ID}@1.0.0`]);
    expect(result.stderr).toMatch(UNSIGNED_NOTE);
    expect(result.code).toBe(0);
    // Not a terminal: plain lines, no progress bar.
    expect(result.stdout).not.toContain('\r');
    expect(result.stdout).toContain(`downloading ${ID} 1.0.0 (`);
    expect(result.stdout).toContain('verified size and sha256 ');
    expect(result.stdout).toContain('preflight passed');
    expect(result.stdout).toContain(`installed ${ID} 1.0.0 (disabled); enable it with: svc ext enable ${ID}`);
    expect(await installed()).toMatchObject({ source: 'catalog', state: 'disabled', version: '1.0.0', permissions: [], path: storeDir(ID, '1.0.0') });
    expect(statSync(storeDir(ID, '1.0.0')).mode & 0o777).toBe(0o555);
    expect(statSync(storeDir(ID, '1.0.0', 'dist')).mode & 0o777).toBe(0o555);
    expect(statSync(storeDir(ID, '1.0.0', 'dist', 'svc-cli-provider.js')).mode & 0o777).toBe(0o444);
    expect(statSync(storeDir(ID, '1.0.0', 'package.json')).mode & 0o777).toBe(0o444);
    const pkg = JSON.parse(readFileSync(storeDir(ID, '1.0.0', 'package.json'), 'utf8'));
    expect(pkg.scripts).toBeUndefined();
    expect(pkg.dependencies).toBeUndefined();
    expect(staging()).toEqual([]);
  });

  test('the catalog marks the installed version, and installing it again is refused', async () => {
    const json = JSON.parse((await svc.run(['ext', 'catalog', '--json'])).stdout);
    const entry = json.extensions.find((e: { id: string }) => e.id === ID);
    expect(entry.installed).toMatchObject({ version: '1.0.0', source: 'catalog', state: 'disabled' });
    expect(entry.versions.find((v: { version: string }) => v.version === '1.0.0').installed).toBe('current');
    const again = await svc.run(['ext', 'install', `${ID}@1.1.0`]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`error extension_exists: ${ID} 1.0.0 is already installed; change its version with \`svc ext update ${ID}@1.1.0\``);
  });

  test('a disabled install runs nothing; enable with confirmation grants what it asks; a query runs it', async () => {
    const refused = await query('hello');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('error extension_disabled');
    const enabled = await svc.run(['ext', 'enable', ID, '--yes']);
    expect(enabled.code).toBe(0);
    expect(enabled.stdout).toContain('process:spawn');
    expect(enabled.stdout).toContain(`${ID} enabled with process:spawn`);
    const answered = await query('hello');
    expect(answered.stderr).toBe('');
    expect(answered.stdout).toBe('v1.0.0\nhello\n');
  });
});

describe('updates', () => {
  test('an update with the same permissions switches while a call already running finishes on the old version', async () => {
    const release = join(scratch, 'release-1');
    const running = svc.start(['query', '--provider', ID, `wait-for ${release}`]);
    const closed = new Promise<number | null>((resolve) => running.once('close', resolve));
    // On a failure below too: the call is released (its wait ends) and the query is gone before the next test.
    onTestFinished(async () => {
      writeFileSync(release, '');
      if (running.exitCode === null && running.signalCode === null) {
        const timer = setTimeout(() => running.kill('SIGKILL'), 15_000);
        await closed;
        clearTimeout(timer);
      }
    });
    await waitFor(() => existsSync(`${release}.started`), 15_000, 'the running call');
    expect(readFileSync(`${release}.started`, 'utf8')).toBe('1.0.0');

    const updated = await svc.run(['ext', 'update', `${ID}@1.1.0`]);
    expect(updated.stderr).toMatch(UNSIGNED_NOTE);
    expect(updated.code).toBe(0);
    expect(updated.stdout).toContain(`updated ${ID} 1.0.0 → 1.1.0 (enabled)`);
    expect(await installed()).toMatchObject({ version: '1.1.0', state: 'enabled', previousVersion: '1.0.0', permissions: ['process:spawn'], path: storeDir(ID, '1.1.0') });
    expect((await query('after')).stdout).toBe('v1.1.0\nafter\n');

    writeFileSync(release, '');
    const code = await closed;
    expect(running.output.stderr).toBe('');
    expect(code).toBe(0);
    expect(running.output.stdout).toBe('v1.0.0 waited\n');
  });

  test('updating to the installed version is refused', async () => {
    const result = await svc.run(['ext', 'update', `${ID}@1.1.0`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error version_already_current:');
  });

  test('an update that asks for new permissions waits for confirmation while the old version keeps serving', async () => {
    const updated = await svc.run(['ext', 'update', `${ID}@2.0.0`]);
    expect(updated.code).toBe(0);
    expect(updated.stdout).toContain(`${ID} 2.0.0 is staged, but its permissions differ from the granted ones:\n  + network:provider\n`);
    expect(updated.stdout).toContain(`${ID} 1.1.0 keeps serving (needs-confirmation); review and switch with: svc ext enable ${ID}`);
    expect(await installed()).toMatchObject({ version: '1.1.0', state: 'needs-confirmation', pendingVersion: '2.0.0', permissions: ['process:spawn'] });
    expect(existsSync(storeDir(ID, '2.0.0'))).toBe(true);
    expect((await query('still')).stdout).toBe('v1.1.0\nstill\n');
    expect((await svc.run(['ext', 'list'])).stdout).toContain(`needs-confirmation (update to 2.0.0 waits: svc ext enable ${ID})`);
  });

  test('svc ext enable shows the difference before asking; without a confirmation nothing changes', async () => {
    const asked = await svc.run(['ext', 'enable', ID]);
    expect(asked.code).toBe(1);
    expect(asked.stdout).toContain(`update ${ID} 1.1.0 → 2.0.0: the permissions change (1.1.0 serves until you confirm)`);
    expect(asked.stdout).toMatch(/\+ network:provider/);
    expect(asked.stdout).toMatch(/ {3}process:spawn/);
    expect(asked.stderr).toContain('error confirmation_required');
    expect(await installed()).toMatchObject({ version: '1.1.0', state: 'needs-confirmation', pendingVersion: '2.0.0' });
    expect((await query('unchanged')).stdout).toBe('v1.1.0\nunchanged\n');
  });

  test('confirming switches to the pending version with exactly its permissions', async () => {
    const enabled = await svc.run(['ext', 'enable', ID, '--yes']);
    expect(enabled.code).toBe(0);
    expect(enabled.stdout).toContain(`${ID} enabled with network:provider, process:spawn`);
    expect(await installed()).toMatchObject({ version: '2.0.0', state: 'enabled', previousVersion: '1.1.0', permissions: ['network:provider', 'process:spawn'] });
    expect((await query('new')).stdout).toBe('v2.0.0\nnew\n');
    // The version two switches back is no longer referenced and is gone from the store.
    expect(readdirSync(storeDir(ID)).sort()).toEqual(['1.1.0', '2.0.0']);
  });
});

describe('rollback and uninstall', () => {
  test('rollback returns to the previous version; its different permissions are confirmed first', async () => {
    const rolled = await svc.run(['ext', 'rollback', ID]);
    expect(rolled.code).toBe(0);
    expect(rolled.stdout).toContain(`${ID} 1.1.0 is staged, but its permissions differ from the granted ones:\n  - network:provider\n`);
    expect((await query('during')).stdout).toBe('v2.0.0\nduring\n');
    const confirmed = await svc.run(['ext', 'enable', ID, '--yes']);
    expect(confirmed.stdout).toContain('- network:provider');
    expect(await installed()).toMatchObject({ version: '1.1.0', state: 'enabled', previousVersion: '2.0.0', permissions: ['process:spawn'] });
    expect((await query('back')).stdout).toBe('v1.1.0\nback\n');
  });

  test('a second rollback refuses to go forward again, and says how to', async () => {
    const again = await svc.run(['ext', 'rollback', ID]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`error already_rolled_back: ${ID} was already rolled back from 2.0.0 to 1.1.0; a second rollback would go forward again`);
    expect(again.stderr).toContain(`fix: To return to 2.0.0, run \`svc ext update ${ID}@2.0.0\``);
    expect(await installed()).toMatchObject({ version: '1.1.0', state: 'enabled', previousVersion: '2.0.0', rolledBackFrom: '2.0.0' });
    expect((await query('still')).stdout).toBe('v1.1.0\nstill\n');
  });

  test('rollback with an update pending discards the pending update', async () => {
    const staged = await svc.run(['ext', 'update', `${ID}@2.0.0`, '--json']);
    expect(staged.code, staged.stderr).toBe(0);
    expect(JSON.parse(staged.stdout)).toMatchObject({ outcome: 'pending', current: '1.1.0', pending: '2.0.0', permissions: { added: ['network:provider'] } });
    expect(await installed()).toMatchObject({ version: '1.1.0', pendingVersion: '2.0.0', state: 'needs-confirmation' });
    const discarded = await svc.run(['ext', 'rollback', ID]);
    expect(discarded.stdout).toContain(`discarded the pending update ${ID} 2.0.0; ${ID} 1.1.0 stays (enabled)`);
    const row = await installed();
    expect(row).toMatchObject({ version: '1.1.0', state: 'enabled', previousVersion: '2.0.0' });
    expect(row?.pendingVersion).toBeUndefined();
  });

  test('an update to a version still in the store switches without downloading it again', async () => {
    await svc.run(['ext', 'disable', ID]);
    const before = server.requests.length;
    const updated = await svc.run(['ext', 'update', `${ID}@2.0.0`]);
    expect(updated.code).toBe(0);
    expect(updated.stdout).toContain(`${ID} 2.0.0 is already in the store`);
    expect(updated.stdout).toContain(`updated ${ID} 1.1.0 → 2.0.0 (disabled)`);
    expect(server.requests.slice(before).map((r) => r.path)).toEqual(['/catalog/index.v1.json']);
    const rolled = await svc.run(['ext', 'rollback', ID]);
    expect(rolled.stdout).toContain(`rolled back ${ID} 2.0.0 → 1.1.0 (disabled)`);
  });

  test('uninstall refuses built-in and developer registrations with a code', async () => {
    const builtin = await svc.run(['ext', 'uninstall', 'svc-official.claude-code']);
    expect(builtin.code).toBe(1);
    expect(builtin.stderr).toContain('error not_a_catalog_extension: svc-official.claude-code is a built-in extension');
    const echo = copyFixtureProvider('echo');
    expect((await svc.run(['ext', 'dev', 'add', echo])).code).toBe(0);
    const dev = await svc.run(['ext', 'uninstall', 'svc-test.echo']);
    expect(dev.code).toBe(1);
    expect(dev.stderr).toContain('error not_a_catalog_extension: svc-test.echo is a developer extension');
    const update = await svc.run(['ext', 'update', 'svc-test.echo@1.0.0']);
    expect(update.stderr).toContain('error not_a_catalog_extension:');
    expect(existsSync(echo)).toBe(true);
  });

  test('uninstall refuses to leave a connection of the provider behind, unless forced', async () => {
    expect((await svc.run(['connection', 'add', 'echo-work', '--provider', ID])).code).toBe(0);
    const refused = await svc.run(['ext', 'uninstall', ID]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`error extension_has_connections: ${ID} is used by the connection echo-work;`);
    expect(refused.stderr).toContain(`fix: Remove them first`);
    expect(await installed()).toMatchObject({ version: '1.1.0' });
  });

  test('uninstall removes the registration and every stored version', async () => {
    const removed = await svc.run(['ext', 'uninstall', ID, '--force']);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(`uninstalled ${ID} 1.1.0`);
    expect(removed.stdout).toContain(`warning: these connections still name ${ID} and will fail until it is installed again: echo-work`);
    expect((await svc.run(['connection', 'remove', 'echo-work'])).code).toBe(0);
    expect(await installed()).toBeUndefined();
    expect(existsSync(storeDir(ID))).toBe(false);
    expect(staging()).toEqual([]);
    const gone = await query('anyone');
    expect(gone.stderr).toContain('error extension_not_found');
    const rollback = await svc.run(['ext', 'rollback', ID]);
    expect(rollback.stderr).toContain('error extension_not_found');
  });

  test('svc serve offers the same operations over HTTP, and refuses requests that carry a location', async () => {
    const serve = svc.start(['serve', '--port', '0']);
    try {
      // Read as every client reads it: the service writes it in two steps while it starts.
      const info = await waitFor(() => {
        const parsed = new ServerFile(svc.home).read();
        return parsed?.url ? { url: parsed.url } : undefined;
      }, 15_000, 'svc serve');
      const token = readFileSync(join(svc.home, 'token'), 'utf8').trim();
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${info.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as any };
      };
      const listing = await call('GET', '/api/extensions/catalog');
      expect(listing.status).toBe(200);
      expect(listing.body.extensions.map((e: { id: string }) => e.id)).toContain(ID);
      const refused = await call('POST', '/api/extensions/install', { id: ID, version: '1.0.0', catalogUrl: 'https://elsewhere.example/index.v1.json' });
      expect(refused).toMatchObject({ status: 400, body: { error: { code: 'catalog_url_not_accepted' } } });
      const local = await call('POST', '/api/extensions/install', { id: ID, version: '/tmp/provider' });
      expect(local.body.error.code).toBe('local_path_not_accepted');
      const installedOverHttp = await call('POST', '/api/extensions/install', { id: ID, version: '1.0.0' });
      expect(installedOverHttp.status).toBe(201);
      expect(installedOverHttp.body.extension).toMatchObject({ id: ID, version: '1.0.0', state: 'disabled' });
      const prompt = await call('GET', `/api/extensions/${ID}/permissions`);
      expect(prompt.body.requested.map((p: { name: string }) => p.name)).toEqual(['process:spawn']);
      expect((await call('POST', `/api/extensions/${ID}/uninstall`, {})).body).toEqual({ uninstalled: { id: ID, version: '1.0.0', connectionsLeft: [] } });
      expect(JSON.stringify([listing, refused, installedOverHttp])).not.toContain(TOKEN);
    } finally {
      serve.kill('SIGTERM');
      await new Promise((resolve) => serve.once('close', resolve));
    }
    expect(await installed()).toBeUndefined();
  });

  test('on a terminal, install draws a progress bar while it downloads', async () => {
    const term = pty.spawn(process.execPath, [SVC_BIN, 'ext', 'install', `${ID}@1.0.0`], {
      cols: 100,
      rows: 20,
      env: svc.env as Record<string, string>,
    });
    let output = '';
    term.onData((data) => (output += data));
    const exitCode = await new Promise<number>((resolve) => term.onExit(({ exitCode: code }) => resolve(code)));
    expect(exitCode, output).toBe(0);
    expect(output).toContain(`\r\x1b[2K[${'#'.repeat(30)}] 100%`);
    expect(output).toContain(`installed ${ID} 1.0.0 (disabled)`);
    expect((await svc.run(['ext', 'uninstall', ID])).code).toBe(0);
  });

  test('the token never reached a log line', () => {
    const log = readFileSync(join(svc.home, 'logs', 'svc.log'), 'utf8');
    expect(log).toContain('extension installed from the catalog');
    expect(log).not.toContain(TOKEN);
  });
});
