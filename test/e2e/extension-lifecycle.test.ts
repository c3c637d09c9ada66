import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { copyFixtureProvider } from '../support/copy-fixture-provider.js';
import { createSvcSandbox, type SvcSandbox } from '../support/svc-process.js';

let svc: SvcSandbox;
let echoDir: string;

beforeAll(() => {
  svc = createSvcSandbox();
  echoDir = copyFixtureProvider('echo');
});
afterAll(() => svc.cleanup());

describe('developer registration and enabling', () => {
  test('registers a provider in place, disabled, without evaluating it', async () => {
    const added = await svc.run(['ext', 'dev', 'add', echoDir]);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('registered svc-test.echo 1.0.0');
    const list = await svc.run(['ext', 'list', '--json']);
    const rows = JSON.parse(list.stdout) as Array<{ id: string; state: string; source: string; path: string; permissions: string[] }>;
    const echo = rows.find((row) => row.id === 'svc-test.echo');
    expect(echo).toMatchObject({ state: 'disabled', source: 'dev', path: echoDir, permissions: [] });
    expect(existsSync(join(echoDir, '.evaluated'))).toBe(false);
  });

  test('refuses a relative folder', async () => {
    const result = await svc.run(['ext', 'dev', 'add', 'relative/dir']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error invalid_request');
  });

  test('a disabled provider refuses queries and its code is not loaded', async () => {
    const result = await svc.run(['query', '--provider', 'svc-test.echo', 'hi']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error extension_disabled');
    expect(existsSync(join(echoDir, '.evaluated'))).toBe(false);
  });

  test('enable without a terminal and without --yes asks for confirmation and grants nothing', async () => {
    const result = await svc.run(['ext', 'enable', 'svc-test.echo']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('process:spawn');
    expect(result.stdout).toContain('config:provider');
    expect(result.stderr).toContain('error confirmation_required');
    const rows = JSON.parse((await svc.run(['ext', 'list', '--json'])).stdout) as Array<{ id: string; state: string }>;
    expect(rows.find((row) => row.id === 'svc-test.echo')?.state).toBe('disabled');
  });

  test('enable --yes grants exactly the listed permissions', async () => {
    const result = await svc.run(['ext', 'enable', 'svc-test.echo', '--yes']);
    expect(result.code).toBe(0);
    const rows = JSON.parse((await svc.run(['ext', 'list', '--json'])).stdout) as Array<{ id: string; state: string; permissions: string[] }>;
    expect(rows.find((row) => row.id === 'svc-test.echo')).toMatchObject({ state: 'enabled', permissions: ['config:provider', 'process:spawn'] });
  });

  test('a query streams text once enabled, and the plugin is loaded only now', async () => {
    const result = await svc.run(['query', '--provider', 'svc-test.echo', 'hi there']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('hello\nhi\nthere\n');
    expect(existsSync(join(echoDir, '.evaluated'))).toBe(true);
  });

  test('--json prints one canonical event per line', async () => {
    const result = await svc.run(['query', '--json', '--provider', 'svc-test.echo', 'hi']);
    const events = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(events.map((e: { type: string }) => e.type)).toEqual(['session', 'text', 'text', 'usage', 'finish']);
    expect(events[1]).toEqual({ type: 'text', text: 'hello\n' });
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  });

  test('a manifest that asks for more permissions later needs confirmation again', async () => {
    const pkgFile = join(echoDir, 'package.json');
    const original = readFileSync(pkgFile, 'utf8');
    const pkg = JSON.parse(original);
    pkg.svc.permissions.push('integration:mcp');
    writeFileSync(pkgFile, JSON.stringify(pkg, null, 2));
    try {
      const refused = await svc.run(['query', '--provider', 'svc-test.echo', 'hi']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('error permissions_changed');
      const rows = JSON.parse((await svc.run(['ext', 'list', '--json'])).stdout) as Array<{ id: string; state: string }>;
      expect(rows.find((row) => row.id === 'svc-test.echo')?.state).toBe('needs-confirmation');
      const again = await svc.run(['ext', 'enable', 'svc-test.echo', '--yes']);
      expect(again.stdout).toMatch(/\+ integration:mcp/);
      expect(again.stdout).not.toMatch(/\+ process:spawn/);
      expect((await svc.run(['query', '--provider', 'svc-test.echo', 'hi'])).code).toBe(0);
    } finally {
      writeFileSync(pkgFile, original);
    }
  });

  test('doctor prints every check', async () => {
    const result = await svc.run(['ext', 'doctor', 'svc-test.echo']);
    expect(result.code).toBe(0);
    for (const check of ['manifest', 'host-range', 'node-range', 'permissions', 'entry', 'config-schema', 'cli-dependency']) {
      expect(result.stdout).toMatch(new RegExp(`✓ ${check}`));
    }
  });

  test('doctor shows the failing check with its code and a fix', async () => {
    // The probe sees only the worker's scrubbed environment, so the other version comes first on PATH.
    const bin = join(svc.home, 'cli-3.0.0');
    mkdirSync(bin);
    writeFileSync(join(bin, 'svc-echo-cli'), '#!/bin/sh\necho "svc-echo-cli 3.0.0"\n', { mode: 0o755 });
    const result = await svc.run(['ext', 'doctor', 'svc-test.echo'], { env: { PATH: `${bin}${delimiter}${svc.env.PATH}` } });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ cli-dependency {2}cli_incompatible: .* — fix: /);
  });

  test('models lists the provider models', async () => {
    const result = await svc.run(['models', '--provider', 'svc-test.echo', '--json']);
    expect(JSON.parse(result.stdout)).toEqual([
      { id: 'echo-small', displayName: 'Echo Small', default: true },
      { id: 'echo-large', displayName: 'Echo Large', contextWindow: 200000 },
    ]);
  });

  test('disable stops further calls', async () => {
    expect((await svc.run(['ext', 'disable', 'svc-test.echo'])).code).toBe(0);
    const result = await svc.run(['query', '--provider', 'svc-test.echo', 'hi']);
    expect(result.stderr).toContain('error extension_disabled');
  });

  test('dev remove deletes the registration and leaves the folder', async () => {
    expect((await svc.run(['ext', 'dev', 'remove', 'svc-test.echo'])).code).toBe(0);
    const rows = JSON.parse((await svc.run(['ext', 'list', '--json'])).stdout) as Array<{ id: string }>;
    expect(rows.some((row) => row.id === 'svc-test.echo')).toBe(false);
    expect(existsSync(join(echoDir, 'package.json'))).toBe(true);
  });
});
