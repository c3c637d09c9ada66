// A provider broken by its CLI (the probe after `svc ext enable` found the wrong version) recovers by
// itself: its next call runs preflight again, and once the right CLI answers it is enabled and serves.
import { mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { copyFixtureProvider } from '../support/copy-fixture-provider.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';

let svc: SvcSandbox;
let wrongCliPath: string;

beforeAll(async () => {
  svc = createSvcSandbox();
  const bin = join(svc.home, 'old-cli');
  mkdirSync(bin);
  writeFileSync(join(bin, 'svc-echo-cli'), '#!/bin/sh\necho "svc-echo-cli 0.9.0"\n', { mode: 0o755 });
  wrongCliPath = `${bin}${delimiter}${svc.env.PATH}`;
  expect((await svc.run(['ext', 'dev', 'add', copyFixtureProvider('echo')])).code).toBe(0);
});

afterAll(() => svc?.cleanup());

const state = async () =>
  (JSON.parse((await svc.run(['ext', 'list', '--json'])).stdout) as Array<{ id: string; state: string; error?: { code: string } }>).find((row) => row.id === 'svc-test.echo');

test('a failed probe after confirmation leaves the provider broken with the probe code', async () => {
  const enabled = await svc.run(['ext', 'enable', 'svc-test.echo', '--yes', '--json'], { env: { PATH: wrongCliPath } });
  expect(enabled.code).toBe(1);
  expect(enabled.stderr).toMatch(/^error cli_incompatible: svc-test\.echo was enabled, but .*0\.9\.0/m);
  expect(await state()).toMatchObject({ state: 'broken', error: { code: 'cli_incompatible' } });
  const still = await svc.run(['query', '--provider', 'svc-test.echo', 'hi'], { env: { PATH: wrongCliPath } });
  expect(still.stderr).toContain('error cli_incompatible');
});

test('the next call with the right CLI recovers it without another svc ext enable', async () => {
  const result = await svc.run(['query', '--provider', 'svc-test.echo', 'back']);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toContain('back');
  expect(await state()).toMatchObject({ state: 'enabled' });
});
