// kill -9 at every step of a catalog install, update, rollback and uninstall, with the real `svc`:
// SVC_TEST_CRASH_AT=<point> makes the process SIGKILL itself there. Each time, the previous state
// (or, once committed, the new one) must be fully usable — listed, and answering a query through the
// provider — and the next start must leave no journal row, no staging folder and no store folder
// that nothing refers to.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeCatalogFixtureRepo, runCatalogBuild, serveCatalog, type CatalogServer } from '../support/catalog-fixture.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';
import { createThrowawayCa } from '../support/throwaway-https.js';

const ID = 'svc-test.catalog-echo';

let scratch: string;
let server: CatalogServer;
let svc: SvcSandbox;

interface RawState {
  journal: Array<{ kind: string; extension_id: string }>;
  registration?: { version: string; state: string; pending_version: string | null; previous_version: string | null };
  versions: string[];
  staging: string[];
  store: string[];
}

/** The state as the killed process left it, read without starting svc (which would clean up). */
function rawState(): RawState {
  const db = new Database(join(svc.home, 'svc.db'));
  try {
    const journal = db.prepare('SELECT kind, extension_id FROM extension_operations').all() as RawState['journal'];
    const registration = db.prepare('SELECT version, state, pending_version, previous_version FROM extensions WHERE id = ?').get(ID) as RawState['registration'];
    const versions = (db.prepare('SELECT version FROM extension_versions WHERE id = ? ORDER BY version').all(ID) as Array<{ version: string }>).map((row) => row.version);
    const stagingDir = join(svc.home, 'extensions', 'staging');
    const storeDir = join(svc.home, 'extensions', 'store', ID);
    return {
      journal,
      registration: registration ?? undefined,
      versions,
      staging: existsSync(stagingDir) ? readdirSync(stagingDir) : [],
      store: existsSync(storeDir) ? readdirSync(storeDir).sort() : [],
    };
  } finally {
    db.close();
  }
}

async function crashAt(point: string, args: string[]): Promise<void> {
  const result = await svc.run(args, { env: { SVC_TEST_CRASH_AT: point } });
  expect(result.signal, `${args.join(' ')} should have been killed at ${point}\n${result.stdout}\n${result.stderr}\n${logTail()}`).toBe('SIGKILL');
}

/** The end of the service log, where an unexpected error is written with its stack. */
function logTail(): string {
  const file = join(svc.home, 'logs', 'svc.log');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-40).join('\n') : '(no service log)';
}

/** The next start: it lists, then the provider answers through the version expected to serve. */
async function expectUsable(expected: { version: string; state: string } | undefined): Promise<void> {
  const list = await svc.run(['ext', 'list', '--json']);
  expect(list.code, list.stderr).toBe(0);
  const row = (JSON.parse(list.stdout) as Array<{ id: string; version: string; state: string }>).find((r) => r.id === ID);
  if (expected === undefined) {
    expect(row).toBeUndefined();
    return;
  }
  expect(row).toMatchObject(expected);
  if (expected.state === 'enabled') {
    const answer = await svc.run(['query', '--provider', ID, 'still here']);
    expect(answer.stderr, `exit ${answer.code}`).toBe('');
    expect(answer.stdout).toBe(`v${expected.version}\nstill\nhere\n`);
  }
}

/** After a start: no journal row, no staging folder, and the store holds exactly the versions the database names. */
function expectNoLeftovers(): void {
  const state = rawState();
  expect(state.journal).toEqual([]);
  expect(state.staging).toEqual([]);
  expect(state.store).toEqual(state.versions);
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-catalog-crash-'));
  await mkdir(join(scratch, 'ca'));
  const ca = createThrowawayCa(join(scratch, 'ca'));
  server = await serveCatalog(ca, join(scratch, 'out'));
  await makeCatalogFixtureRepo(join(scratch, 'repo'), [
    { folder: 'catalog-echo-v100', id: ID, version: '1.0.0', permissions: ['process:spawn'] },
    { folder: 'catalog-echo-v110', id: ID, version: '1.1.0', permissions: ['process:spawn'] },
    { folder: 'catalog-echo-v200', id: ID, version: '2.0.0', permissions: ['process:spawn', 'network:provider'] },
  ]);
  runCatalogBuild(join(scratch, 'repo'), server.baseUrl, join(scratch, 'out'));
  svc = createSvcSandbox();
  svc.env.NODE_EXTRA_CA_CERTS = ca.caCertFile;
  svc.env.SVC_EXTENSION_CATALOG_URL = server.baseUrl;
});

afterAll(async () => {
  await server?.close();
  svc?.cleanup();
  await rm(scratch, { recursive: true, force: true });
});

describe('kill -9 during install', () => {
  const install = ['ext', 'install', `${ID}@1.0.0`];

  test.each([
    ['install:journaled', (s: RawState) => expect(s.staging).toEqual([])],
    ['install:downloading', (s: RawState) => expect(s.staging).toHaveLength(1)],
    ['install:staged', (s: RawState) => expect(s.staging).toHaveLength(1)],
    ['install:moved', (s: RawState) => expect(s.store).toEqual(['1.0.0'])],
    ['install:in-transaction', (s: RawState) => expect(s.store).toEqual(['1.0.0'])],
  ])('at %s leaves it not installed, and the next start cleans up', async (point, leftBehind) => {
    await crashAt(point, install);
    const state = rawState();
    expect(state.journal).toEqual([{ kind: 'install', extension_id: ID }]);
    expect(state.registration).toBeUndefined();
    leftBehind(state);
    await expectUsable(undefined);
    expectNoLeftovers();
  });

  test('at install:committed leaves it installed, and the next start removes staging', async () => {
    await crashAt('install:committed', install);
    const state = rawState();
    expect(state.journal).toEqual([]);
    expect(state.registration).toMatchObject({ version: '1.0.0', state: 'disabled' });
    expect(state.staging).toHaveLength(1);
    await expectUsable({ version: '1.0.0', state: 'disabled' });
    expectNoLeftovers();
    expect((await svc.run(['ext', 'enable', ID, '--yes'])).code).toBe(0);
    await expectUsable({ version: '1.0.0', state: 'enabled' });
  });
});

describe('kill -9 during update', () => {
  const update = ['ext', 'update', `${ID}@1.1.0`];

  test.each([
    ['update:journaled', (s: RawState) => expect(s.store).toEqual(['1.0.0'])],
    ['update:downloading', (s: RawState) => expect(s.staging).toHaveLength(1)],
    ['update:staged', (s: RawState) => expect(s.staging).toHaveLength(1)],
    ['update:moved', (s: RawState) => expect(s.store).toEqual(['1.0.0', '1.1.0'])],
    ['update:in-transaction', (s: RawState) => expect(s.store).toEqual(['1.0.0', '1.1.0'])],
  ])('at %s leaves the old version serving, and the next start cleans up', async (point, leftBehind) => {
    await crashAt(point, update);
    const state = rawState();
    expect(state.journal).toEqual([{ kind: 'update', extension_id: ID }]);
    expect(state.registration).toMatchObject({ version: '1.0.0', state: 'enabled' });
    expect(state.versions).toEqual(['1.0.0']);
    leftBehind(state);
    await expectUsable({ version: '1.0.0', state: 'enabled' });
    expectNoLeftovers();
  });

  test('at update:in-transaction of an update that needs confirmation, nothing is pending afterwards', async () => {
    await crashAt('update:in-transaction', ['ext', 'update', `${ID}@2.0.0`]);
    expect(rawState().registration).toMatchObject({ version: '1.0.0', state: 'enabled', pending_version: null });
    await expectUsable({ version: '1.0.0', state: 'enabled' });
    expectNoLeftovers();
  });

  test('at update:committed the new version serves, and the next start removes staging', async () => {
    await crashAt('update:committed', update);
    const state = rawState();
    expect(state.journal).toEqual([]);
    expect(state.registration).toMatchObject({ version: '1.1.0', state: 'enabled', previous_version: '1.0.0' });
    await expectUsable({ version: '1.1.0', state: 'enabled' });
    expectNoLeftovers();
  });
});

describe('kill -9 during rollback', () => {
  test.each(['rollback:journaled', 'rollback:in-transaction'])('at %s leaves the current version serving', async (point) => {
    await crashAt(point, ['ext', 'rollback', ID]);
    expect(rawState().journal).toEqual([{ kind: 'rollback', extension_id: ID }]);
    await expectUsable({ version: '1.1.0', state: 'enabled' });
    expectNoLeftovers();
    expect(rawState().registration).toMatchObject({ version: '1.1.0', previous_version: '1.0.0' });
  });

  test('at rollback:committed the previous version serves', async () => {
    await crashAt('rollback:committed', ['ext', 'rollback', ID]);
    await expectUsable({ version: '1.0.0', state: 'enabled' });
    expectNoLeftovers();
    expect(rawState().registration).toMatchObject({ version: '1.0.0', previous_version: '1.1.0' });
  });
});

describe('kill -9 during uninstall', () => {
  test.each(['uninstall:journaled', 'uninstall:in-transaction'])('at %s leaves it installed and serving', async (point) => {
    await crashAt(point, ['ext', 'uninstall', ID]);
    expect(rawState().journal).toEqual([{ kind: 'uninstall', extension_id: ID }]);
    await expectUsable({ version: '1.0.0', state: 'enabled' });
    expectNoLeftovers();
    expect(rawState().store).toEqual(['1.0.0', '1.1.0']);
  });

  test('at uninstall:committed it is gone, and the next start removes its files', async () => {
    await crashAt('uninstall:committed', ['ext', 'uninstall', ID]);
    const state = rawState();
    expect(state.registration).toBeUndefined();
    expect(state.store).toEqual(['1.0.0', '1.1.0']);
    await expectUsable(undefined);
    expectNoLeftovers();
    expect(existsSync(join(svc.home, 'extensions', 'store', ID))).toBe(false);
  });

  test('an unknown crash point is inert', async () => {
    const result = await svc.run(['ext', 'install', `${ID}@1.0.0`], { env: { SVC_TEST_CRASH_AT: 'install:somewhere-else' } });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
    await expectUsable({ version: '1.0.0', state: 'disabled' });
  });
});
