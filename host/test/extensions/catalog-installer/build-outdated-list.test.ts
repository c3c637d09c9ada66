import { expect, test } from 'vitest';
import type { Manifest } from '@svc-org/ai-sdk';
import { buildOutdatedList } from '../../../src/features/extensions/catalog-installer/index.js';
import type { CatalogIndex } from '../../../src/features/extensions/install/index.js';
import type { ExtensionRecord } from '../../../src/features/extensions/registry/index.js';
import { checkHostRange } from '../../../src/features/extensions/preflight/index.js';

const release = (version: string, compatibility: { svc: string; node: string; cli?: string }, permissions = ['process:spawn']) => ({
  version,
  permissions,
  compatibility,
  capabilities: { sessions: { fresh: true, resume: false }, query: { generate: true, stream: true }, models: false },
  artifact: { url: `https://catalog.test/${version}.tgz`, sha256: 'a'.repeat(64), integrity: 'sha256-x', size: 1 },
});

const ok = { svc: '>=0.3.0 <1.0.0', node: '>=20' };

function index(versions: ReturnType<typeof release>[]): CatalogIndex {
  return { schemaVersion: 1, extensions: [{ id: 'acme.tool', publisher: 'acme', displayName: 'Tool', description: '', versions }] } as unknown as CatalogIndex;
}

function record(version: string, source: 'catalog' | 'dev' = 'catalog'): ExtensionRecord {
  return { id: 'acme.tool', version, source, state: 'enabled', grantedPermissions: ['process:spawn'], displayName: 'Tool', path: '/x' } as unknown as ExtensionRecord;
}

const hostVersions = (cli?: string) => ({ host: '0.3.0', node: '20.19.0', cli: new Map([['acme.tool', cli]]) });

test('a pre-release is offered only to a provider that runs one', () => {
  const offered = index([release('1.0.0', ok), release('1.1.0-rc.1', ok)]);
  expect(buildOutdatedList(offered, [record('1.0.0')], hostVersions())[0]).toMatchObject({ newestCompatible: { version: '1.0.0' }, updateAvailable: false });
  expect(buildOutdatedList(offered, [record('1.0.0-rc.1')], hostVersions())[0]).toMatchObject({ newestCompatible: { version: '1.1.0-rc.1' }, updateAvailable: true });
});

test('with no compatible version the newest says every reason, and nothing is offered', () => {
  const offered = index([release('2.0.0', { svc: '>=9.0.0', node: '>=99', cli: '>=5.0.0' })]);
  const [entry] = buildOutdatedList(offered, [record('1.0.0')], hostVersions('svc-echo-cli 1.2.3'));
  expect(entry).toMatchObject({
    newestCompatible: null,
    updateAvailable: false,
    newest: {
      compatible: false,
      incompatible: [
        { check: 'svc', range: '>=9.0.0', have: '0.3.0' },
        { check: 'node', range: '>=99', have: '20.19.0' },
        { check: 'cli', range: '>=5.0.0', have: 'svc-echo-cli 1.2.3' },
      ],
    },
  });
});

test('an unknown CLI version leaves the CLI ranges unchecked; developer registrations are not listed', () => {
  const offered = index([release('1.1.0', { ...ok, cli: '>=5.0.0' }, ['process:spawn', 'config:provider'])]);
  expect(buildOutdatedList(offered, [record('1.0.0')], hostVersions(undefined))[0]).toMatchObject({
    cliVersion: null,
    newestCompatible: { version: '1.1.0', permissions: { added: ['config:provider'], dropped: [] } },
    updateAvailable: true,
  });
  expect(buildOutdatedList(offered, [record('1.0.0', 'dev')], hostVersions())).toEqual([]);
});

test('a pre-release host judges a version as preflight will: the list offers nothing preflight refuses', () => {
  const offered = index([release('1.1.0', ok)]);
  const host = { ...hostVersions(), host: '0.4.0-rc.1' };
  const [entry] = buildOutdatedList(offered, [record('1.0.0')], host);
  const preflight = checkHostRange({ id: 'acme.tool', compatibility: ok } as unknown as Manifest, host.host);
  expect(preflight.ok).toBe(false);
  expect(entry).toMatchObject({
    newestCompatible: null,
    updateAvailable: false,
    newest: { compatible: false, incompatible: [{ check: 'svc', range: ok.svc, have: '0.4.0-rc.1' }] },
  });
});
