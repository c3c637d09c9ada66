import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeFixtureRepo, REPO_ROOT } from './make-fixture-repo.js';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-catalog-cli-'));
  await makeFixtureRepo(join(scratch, 'repo'), [{ folder: 'alpha', id: 'acme.alpha', version: '1.0.0' }]);
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

function catalogBuild(...args: string[]) {
  return spawnSync('pnpm', ['--silent', 'extensions:catalog:build', '--', '--root', join(scratch, 'repo'), '--skip-checks', ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
}

test('pnpm extensions:catalog:build writes the artifacts and index.v1.json', async () => {
  const run = catalogBuild('--base-url', 'https://downloads.test/svc', '--output', join(scratch, 'out'));
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.stdout).toContain('acme.alpha-1.0.0.tgz');
  const index = JSON.parse(await readFile(join(scratch, 'out/index.v1.json'), 'utf8')) as { extensions: Array<{ versions: Array<{ artifact: { url: string; size: number } }> }> };
  const artifact = index.extensions[0]!.versions[0]!.artifact;
  expect(artifact.url).toBe('https://downloads.test/svc/artifacts/acme.alpha/1.0.0/acme.alpha-1.0.0.tgz');
  expect((await readFile(join(scratch, 'out/artifacts/acme.alpha/1.0.0/acme.alpha-1.0.0.tgz'))).length).toBe(artifact.size);
});

test('refuses a plain-HTTP base URL with its code and exit status 1', () => {
  const run = catalogBuild('--base-url', 'http://downloads.test/svc', '--output', join(scratch, 'refused'));
  expect(run.status).toBe(1);
  expect(run.stderr).toContain('error catalog_base_url_not_https: --base-url must use https: (got http:)');
});

test('refuses a missing --output with the usage', () => {
  const run = catalogBuild('--base-url', 'https://downloads.test/svc');
  expect(run.status).toBe(1);
  expect(run.stderr).toContain('error catalog_usage: --base-url and --output are required');
});

test('refuses an unknown option with the usage', () => {
  const run = catalogBuild('--base-url', 'https://downloads.test/svc', '--output', join(scratch, 'x'), '--upload');
  expect(run.status).toBe(1);
  expect(run.stderr).toContain('error catalog_usage:');
  expect(run.stderr).toContain("'--upload'");
});
