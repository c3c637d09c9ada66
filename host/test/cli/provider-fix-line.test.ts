// A provider's fix (`details.fix` of an SvcError its stream() throws) reaches the person under the
// message as `fix:`, in both isolation modes, and travels in the error event for every other client.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { copyFixtureProvider } from '../../../test/support/copy-fixture-provider.js';
import { runInProcess } from '../../../test/support/in-process-cli.js';

let home: string;
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'svc-fix-line-'));
  expect((await runInProcess(home, 'ext', 'dev', 'add', copyFixtureProvider('echo'))).code).toBe(0);
}, 60_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

test.each(['worker', 'process'])('svc query prints the fix a provider running as a %s gave, under its message', async (isolation) => {
  const enabled = await runInProcess(home, 'ext', 'enable', 'svc-test.echo', '--yes', '--isolation', isolation);
  expect(enabled.code, enabled.stderr).toBe(0);
  const query = await runInProcess(home, 'query', '--provider', 'svc-test.echo', 'refuse');
  expect(query.code).toBe(1);
  expect(query.stderr).toContain('error invalid_request: echo refuses this prompt\n  fix: Ask echo something else\n');
  const json = await runInProcess(home, 'query', '--provider', 'svc-test.echo', '--json', 'refuse');
  const events = json.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string });
  expect(events).toContainEqual({ type: 'error', code: 'invalid_request', message: 'echo refuses this prompt', fix: 'Ask echo something else' });
});
