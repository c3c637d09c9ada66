import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeFixtureRepo, REPO_ROOT } from './make-fixture-repo.js';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-catalog-epoch-'));
  await makeFixtureRepo(join(scratch, 'repo'), [{ folder: 'alpha', id: 'acme.alpha', version: '1.0.0' }]);
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

function catalogBuild(output: string, epoch: string) {
  return spawnSync('pnpm', ['--silent', 'extensions:catalog:build', '--', '--root', join(scratch, 'repo'), '--skip-checks', '--base-url', 'https://downloads.test/svc', '--output', join(scratch, output)], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, SOURCE_DATE_EPOCH: epoch },
  });
}

test('with SOURCE_DATE_EPOCH the default build takes its index version and expiry from it and repeats byte for byte', async () => {
  // 2026-11-01T00:00:00Z: the expiry is the default 30 days after it, whatever the clock says now.
  const first = catalogBuild('first', '1793491200');
  expect(first.stderr).toBe('');
  expect(first.status).toBe(0);
  await new Promise((done) => setTimeout(done, 1100));
  const second = catalogBuild('second', '1793491200');
  expect(second.status).toBe(0);
  const index = await readFile(join(scratch, 'first/index.v1.json'), 'utf8');
  expect(JSON.parse(index)).toMatchObject({ version: 1793491200, expires: '2026-12-01T00:00:00Z' });
  expect(await readFile(join(scratch, 'second/index.v1.json'), 'utf8')).toBe(index);
  const artifact = 'artifacts/acme.alpha/1.0.0/acme.alpha-1.0.0.tgz';
  expect((await readFile(join(scratch, 'second', artifact))).equals(await readFile(join(scratch, 'first', artifact)))).toBe(true);
}, 120_000);

test('refuses a SOURCE_DATE_EPOCH that is not a number of seconds, with its code', () => {
  const run = catalogBuild('refused', '2026-11-01');
  expect(run.status).toBe(1);
  expect(run.stderr).toContain('error catalog_source_date_epoch_invalid: SOURCE_DATE_EPOCH "2026-11-01" must be a positive number of seconds');
}, 60_000);
