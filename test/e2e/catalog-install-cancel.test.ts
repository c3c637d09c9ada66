// Ctrl-C during `svc ext install` and `svc ext update` as a user presses it: the download in progress
// stops, the command says so and exits 130, and nothing of the half-downloaded version is kept.
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startFixtureCatalog, type FixtureCatalog } from '../support/catalog-fixture.js';
import { createSvcSandbox, waitFor, type SvcSandbox } from '../support/svc-process.js';

const ID = 'svc-test.cancel-echo';
let catalog: FixtureCatalog;
let svc: SvcSandbox;

beforeAll(async () => {
  catalog = await startFixtureCatalog([
    { folder: 'cancel-echo-v100', id: ID, version: '1.0.0', permissions: ['process:spawn'] },
    { folder: 'cancel-echo-v110', id: ID, version: '1.1.0', permissions: ['process:spawn'] },
  ]);
  svc = createSvcSandbox();
  svc.env.NODE_EXTRA_CA_CERTS = catalog.ca.caCertFile;
  svc.env.SVC_EXTENSION_CATALOG_URL = catalog.server.baseUrl;
}, 120_000);
afterAll(async () => {
  await catalog?.close();
  svc?.cleanup();
});

/** The artifact of a version, as a path below the catalog's base URL. */
function artifactOf(version: string): string {
  const out = join(catalog.scratch, 'out');
  const found = (readdirSync(out, { recursive: true }) as string[]).filter((file) => file.endsWith('.tgz') && file.includes(version));
  expect(found).toHaveLength(1);
  return relative(out, join(out, found[0]!)).split('\\').join('/');
}

const listed = async () => JSON.parse((await svc.run(['ext', 'list', '--json'])).stdout) as Array<{ id: string; version: string; pendingVersion?: string }>;
const files = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

/** Runs `svc ext <args>`, presses Ctrl-C once the stalled artifact is half sent, and returns how it ended. */
async function interrupt(args: string[], artifact: string) {
  catalog.server.stall(artifact);
  const asked = catalog.server.requests.length;
  const child = svc.start(['ext', ...args]);
  try {
    await waitFor(() => catalog.server.requests.slice(asked).some((request) => request.path.endsWith(artifact)), 60_000, 'the download to start');
    // The half that was sent has arrived and nothing more will.
    await new Promise((resolve) => setTimeout(resolve, 500));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    return { code, stderr: child.output.stderr };
  } finally {
    catalog.server.stall(undefined);
  }
}

describe('Ctrl-C while a catalog version downloads', () => {
  test('svc ext install stops with 130, error cancelled, and installs nothing', async () => {
    const outcome = await interrupt(['install', `${ID}@1.0.0`], artifactOf('1.0.0'));
    expect(outcome.code, outcome.stderr).toBe(130);
    expect(outcome.stderr).toContain('error cancelled');
    expect((await listed()).find((row) => row.id === ID)).toBeUndefined();
    expect(files(join(svc.home, 'extensions', 'staging'))).toEqual([]);
    expect(files(join(svc.home, 'extensions', 'store', ID))).toEqual([]);
    // Nothing was left half done: the same install runs to its end afterwards.
    const again = await svc.run(['ext', 'install', `${ID}@1.0.0`]);
    expect(again.code, again.stderr).toBe(0);
  }, 120_000);

  test('svc ext update stops with 130, error cancelled, and leaves the installed version as it was', async () => {
    const before = (await listed()).find((row) => row.id === ID);
    expect(before).toMatchObject({ version: '1.0.0' });
    const outcome = await interrupt(['update', `${ID}@1.1.0`], artifactOf('1.1.0'));
    expect(outcome.code, outcome.stderr).toBe(130);
    expect(outcome.stderr).toContain('error cancelled');
    expect((await listed()).find((row) => row.id === ID)).toEqual(before);
    expect(files(join(svc.home, 'extensions', 'staging'))).toEqual([]);
    expect(files(join(svc.home, 'extensions', 'store', ID))).toEqual(['1.0.0']);
  }, 120_000);
});
