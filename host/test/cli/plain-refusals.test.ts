// What svc says when it cannot do what was asked, or when there is nothing to do: each answer names
// what happened and the next step, and nothing to compare is not an error.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { copyFixtureProvider } from '../../../test/support/copy-fixture-provider.js';
import { runInProcess } from '../../../test/support/in-process-cli.js';

let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'svc-refusals-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

test('svc ext dev add after a failed preflight registers the folder but does not say to enable it', async () => {
  const dir = copyFixtureProvider('echo');
  rmSync(join(dir, 'dist'), { recursive: true });
  const added = await runInProcess(home, 'ext', 'dev', 'add', dir);
  expect(added.code, added.stderr).toBe(0);
  expect(added.stdout).toContain('preflight reports problems to fix before it can be enabled:');
  expect(added.stdout).toContain('entry_missing');
  expect(added.stdout).not.toContain('enable it with');
  expect(added.stdout).toContain('it cannot be enabled yet: fix the problems above, check again with svc ext doctor svc-test.echo, then svc ext enable svc-test.echo');
  expect((await runInProcess(home, 'ext', 'dev', 'remove', 'svc-test.echo')).code).toBe(0);
});

test('svc ext dev add refuses a package whose version is not a semantic version, and registers nothing', async () => {
  const dir = copyFixtureProvider('echo');
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...pkg, version: 'banana' }));
  const added = await runInProcess(home, 'ext', 'dev', 'add', dir);
  expect(added.code).toBe(1);
  expect(added.stderr).toContain(`error package_version_invalid: cannot register ${dir}: package.json's version "banana" is not a semantic version`);
  expect(added.stderr).toContain('fix: Set "version" in package.json to a semantic version such as 0.1.0');
  expect((await runInProcess(home, 'ext', 'list')).stdout).not.toContain('svc-test.echo');
});

test('svc ext outdated without a catalog says there is nothing to compare with, and exits 0', async () => {
  const outdated = await runInProcess(home, 'ext', 'outdated');
  expect(outdated).toMatchObject({ code: 0, stderr: '' });
  expect(outdated.stdout).toBe('no catalog configured, so nothing to compare with (set one with: svc config set extensions.catalogUrl <index URL>)\n');
  const json = await runInProcess(home, 'ext', 'outdated', '--json');
  expect(json.code).toBe(0);
  expect(JSON.parse(json.stdout)).toEqual({ configured: false, signature: null, extensions: [] });
});

test('svc config set takes the catalog base URL as well, and says it stored the index URL made from it', async () => {
  const set = await runInProcess(home, 'config', 'set', 'extensions.catalogUrl', 'https://example.com/svc-catalog');
  expect(set.code, set.stderr).toBe(0);
  expect(set.stdout).toBe(
    'extensions.catalogUrl = https://example.com/svc-catalog/index.v1.json\n(stored as https://example.com/svc-catalog/index.v1.json, from https://example.com/svc-catalog)\n',
  );
  const index = await runInProcess(home, 'config', 'set', 'extensions.catalogUrl', 'https://example.com/svc-catalog/index.v1.json');
  expect(index.stdout).toBe('extensions.catalogUrl = https://example.com/svc-catalog/index.v1.json\n');
  expect((await runInProcess(home, 'config', 'unset', 'extensions.catalogUrl')).code).toBe(0);
});
