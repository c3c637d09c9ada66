// The official providers shipped with svc get a (disabled) registration when the services open, which
// every `svc` command does: a registration already at the folder and version is left alone.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openHostServices, type HostServices } from '../../src/host-services.js';

const SHIPPED = join(import.meta.dirname, '../../../extensions/cli-providers/codex/package.json');

let home: string;
let provider: string;
let services: HostServices;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'svc-sync-builtins-'));
  provider = mkdtempSync(join(tmpdir(), 'svc-builtin-provider-'));
  cpSync(SHIPPED, join(provider, 'package.json'));
  services = await openHostServices({ env: { ...process.env, SVC_HOME: home }, builtins: false });
});
afterAll(async () => {
  await services.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(provider, { recursive: true, force: true });
});

const manifest = () => JSON.parse(readFileSync(join(provider, 'package.json'), 'utf8'));
const writeManifest = (pkg: unknown) => writeFileSync(join(provider, 'package.json'), JSON.stringify(pkg, null, 2));
// The log is written asynchronously: what is pending is written out before the file is read.
const logged = () => {
  services.logger.flush();
  try {
    return readFileSync(join(home, 'logs', 'svc.log'), 'utf8');
  } catch {
    return '';
  }
};

describe('built-in providers at each start', () => {
  test('a shipped provider is registered once, disabled, from its folder and version', async () => {
    const pkg = manifest();
    await services.extensions.syncBuiltins([provider]);
    await services.extensions.syncBuiltins([provider]);
    const record = services.registry.get(pkg.svc.id);
    expect(record).toMatchObject({ source: 'builtin', path: provider, version: pkg.version, displayName: pkg.svc.display.name });
    expect(services.registry.list().filter((r) => r.id === pkg.svc.id)).toHaveLength(1);
  });

  test('a registration at the same folder and version is not validated again; a new version is', async () => {
    const pkg = manifest();
    // An edit that keeps id and version is not looked at: the row would not change anyway.
    writeManifest({ ...pkg, svc: { ...pkg.svc, display: undefined } });
    await services.extensions.syncBuiltins([provider]);
    expect(logged()).not.toContain('built-in provider has an invalid manifest');
    // A new version is read whole again: an invalid manifest is reported and the row stays as it was.
    writeManifest({ ...pkg, version: '99.0.0', svc: { ...pkg.svc, display: undefined } });
    await services.extensions.syncBuiltins([provider]);
    expect(logged()).toContain('built-in provider has an invalid manifest');
    expect(services.registry.get(pkg.svc.id).version).toBe(pkg.version);
    // A valid new version updates the row.
    writeManifest({ ...pkg, version: '99.0.0' });
    await services.extensions.syncBuiltins([provider]);
    expect(services.registry.get(pkg.svc.id).version).toBe('99.0.0');
  });
});
