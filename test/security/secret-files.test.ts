// Files that hold secrets are owner-only whatever the mode of an existing SVC_HOME (a 0755 SVC_HOME
// let another user read an API key from the database); `svc ext doctor` warns about such a SVC_HOME;
// a connection's command override that does not exist is `cli_not_found` naming it, never some other
// executable found on PATH.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { InstallToken } from '@svc-org/host/client/install-token';
import { copyFixtureProvider } from '../support/copy-fixture-provider.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';

let svc: SvcSandbox;
const mode = (path: string) => statSync(path).mode & 0o777;

beforeAll(() => {
  svc = createSvcSandbox();
  // As a user (or an older svc) may have left it: readable by everyone.
  chmodSync(svc.home, 0o755);
});

afterAll(() => svc?.cleanup());

test('the database, its WAL and SHM files and the log are created 0600 in a 0755 SVC_HOME', async () => {
  const result = await svc.run(['ext', 'dev', 'add', copyFixtureProvider('echo')]);
  expect(result.code, result.stderr).toBe(0);
  const files = ['svc.db', 'svc.db-wal', 'svc.db-shm', 'logs/svc.log'].map((name) => join(svc.home, name)).filter((path) => existsSync(path));
  expect(files.map((path) => path.slice(svc.home.length + 1))).toEqual(expect.arrayContaining(['svc.db', 'logs/svc.log']));
  for (const path of files) expect(mode(path).toString(8), path).toBe('600');
});

test('files an older svc left readable are made owner-only again', async () => {
  for (const name of ['svc.db', 'logs/svc.log']) chmodSync(join(svc.home, name), 0o644);
  expect((await svc.run(['ext', 'list'])).code).toBe(0);
  for (const name of ['svc.db', 'logs/svc.log']) expect(mode(join(svc.home, name)).toString(8), name).toBe('600');
});

test('the service token is created 0600 in a 0755 SVC_HOME', () => {
  const home = mkdtempSync(join(tmpdir(), 'svc-token-mode-'));
  try {
    chmodSync(home, 0o755);
    InstallToken.ensure(home);
    expect(mode(InstallToken.path(home)).toString(8)).toBe('600');
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('svc ext doctor warns when SVC_HOME is readable by others, and not once it is 0700', async () => {
  const loose = await svc.run(['ext', 'doctor', 'svc-test.echo', '--json']);
  const report = JSON.parse(loose.stdout) as { warnings?: Array<{ code: string; fix: string }> };
  expect(report.warnings).toEqual([expect.objectContaining({ code: 'svc_home_readable_by_others', fix: `chmod 700 ${svc.home}` })]);
  const text = await svc.run(['ext', 'doctor', 'svc-test.echo']);
  expect(text.stdout).toMatch(/^warning svc_home_readable_by_others: /m);
  chmodSync(svc.home, 0o700);
  const tight = JSON.parse((await svc.run(['ext', 'doctor', 'svc-test.echo', '--json'])).stdout) as { warnings?: unknown };
  expect(tight.warnings).toBeUndefined();
});

test('a command override that does not exist fails with cli_not_found naming it, though the CLI is on PATH', async () => {
  expect((await svc.run(['ext', 'enable', 'svc-test.echo', '--yes'])).code).toBe(0);
  const missing = join(svc.home, 'no-such-dir', 'svc-echo-cli');
  expect((await svc.run(['connection', 'add', 'gone', '--provider', 'svc-test.echo', '--command', missing])).code).toBe(0);
  const result = await svc.run(['query', '--connection', 'gone', 'hi']);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(`error cli_not_found: svc-test.echo: the command override ${missing} was not found`);
  expect(result.stdout).toBe('');
});

test('ext enable --connection probes through that connection\'s command override', async () => {
  const bin = join(svc.home, 'other-cli');
  mkdirSync(bin);
  const wrapper = join(bin, 'echo-cli-wrapper');
  writeFileSync(wrapper, '#!/bin/sh\necho "svc-echo-cli 9.0.0"\n', { mode: 0o755 });
  expect((await svc.run(['connection', 'add', 'wrapped', '--provider', 'svc-test.echo', '--command', wrapper])).code).toBe(0);
  const result = await svc.run(['ext', 'enable', 'svc-test.echo', '--yes', '--connection', 'wrapped']);
  expect(result.stdout).toContain(`CLI: ${wrapper} (found by override`);
  expect(result.stderr).toMatch(/^error cli_incompatible: .*9\.0\.0/m);
});
