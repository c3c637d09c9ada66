// kill -9 at a random moment of a random catalog operation (install, update, rollback, uninstall), again
// and again: after each kill the next start must leave no journal row, no staging folder and no store
// folder that nothing names, and what is listed must answer. The named crash points are proven one by
// one in test/e2e/catalog-crash-safety.test.ts; this loop hits the moments between them. The seed is
// printed with every failure (set SVC_KILL_LOOP_SEED to replay one).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startFixtureCatalog, type FixtureCatalog } from '../support/catalog-fixture.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';

const ID = 'svc-test.kill-loop';
const VERSIONS = ['1.0.0', '1.1.0'];
const ITERATIONS = 12;
/** The loop stops early past this (it still needs a few rounds to mean anything). */
const BUDGET_MS = 20_000;

let catalog: FixtureCatalog;
let svc: SvcSandbox;

beforeAll(async () => {
  catalog = await startFixtureCatalog(VERSIONS.map((version) => ({ folder: `kill-loop-v${version.replaceAll('.', '')}`, id: ID, version, permissions: ['process:spawn'] })));
  svc = createSvcSandbox();
  svc.env.NODE_EXTRA_CA_CERTS = catalog.ca.caCertFile;
  svc.env.SVC_EXTENSION_CATALOG_URL = catalog.server.baseUrl;
}, 120_000);

afterAll(async () => {
  await catalog?.close();
  svc?.cleanup();
});

/** mulberry32: small, seedable, good enough to pick moments. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function leftovers(): { journal: unknown[]; staging: string[]; unnamed: string[] } {
  const db = new Database(join(svc.home, 'svc.db'));
  try {
    const journal = db.prepare('SELECT kind FROM extension_operations').all();
    const named = new Set((db.prepare('SELECT version FROM extension_versions WHERE id = ?').all(ID) as Array<{ version: string }>).map((row) => row.version));
    const stagingDir = join(svc.home, 'extensions/staging');
    const storeDir = join(svc.home, 'extensions/store', ID);
    return {
      journal,
      staging: existsSync(stagingDir) ? readdirSync(stagingDir) : [],
      unnamed: existsSync(storeDir) ? readdirSync(storeDir).filter((name) => !named.has(name)) : [],
    };
  } finally {
    db.close();
  }
}

interface Row {
  id: string;
  version: string;
  state: string;
  previousVersion?: string;
  rolledBackFrom?: string;
}

test(`kill -9 at random moments of ${ITERATIONS} catalog operations leaves a usable, clean state every time`, async () => {
  const seed = Number(process.env.SVC_KILL_LOOP_SEED ?? Date.now() % 1_000_000);
  const next = random(seed);
  const started = Date.now();
  const history: string[] = [];
  for (let round = 0; round < ITERATIONS && (round < 6 || Date.now() - started < BUDGET_MS); round++) {
    const listed = await svc.run(['ext', 'list', '--json']);
    const row = (JSON.parse(listed.stdout) as Row[]).find((r) => r.id === ID);
    const choices: string[][] = row
      ? [
          ['ext', 'update', `${ID}@${VERSIONS.find((v) => v !== row.version)!}`],
          ['ext', 'uninstall', ID],
          ...(row.previousVersion && row.rolledBackFrom !== row.previousVersion ? [['ext', 'rollback', ID]] : []),
        ]
      : [['ext', 'install', `${ID}@${VERSIONS[Math.floor(next() * VERSIONS.length)]!}`]];
    const args = choices[Math.floor(next() * choices.length)]!;
    const delay = Math.floor(150 + next() * 1200);
    const child = svc.start(args);
    const closed = new Promise<NodeJS.Signals | null>((resolve) => child.once('close', (_code, signal) => resolve(signal)));
    const timer = setTimeout(() => child.kill('SIGKILL'), delay);
    const signal = await closed;
    clearTimeout(timer);
    history.push(`${args.slice(1).join(' ')} ${signal === 'SIGKILL' ? `killed after ${delay} ms` : 'finished'}`);
    const where = `seed ${seed}, round ${round}:\n${history.join('\n')}`;

    // The next start recovers; then nothing may be left behind, and what is listed must work.
    const after = await svc.run(['ext', 'list', '--json']);
    expect(after.code, where).toBe(0);
    expect(leftovers(), where).toEqual({ journal: [], staging: [], unnamed: [] });
    const now = (JSON.parse(after.stdout) as Row[]).find((r) => r.id === ID);
    if (!now) continue;
    expect(existsSync(join(svc.home, 'extensions/store', ID, now.version)), where).toBe(true);
    if (now.state !== 'enabled') expect((await svc.run(['ext', 'enable', ID, '--yes'])).code, where).toBe(0);
    const answer = await svc.run(['query', '--provider', ID, 'ping']);
    expect(answer.stdout, `${where}\n${answer.stderr}`).toBe(`v${now.version}\nping\n`);
  }
  expect(history.length).toBeGreaterThanOrEqual(6);
}, 240_000);
