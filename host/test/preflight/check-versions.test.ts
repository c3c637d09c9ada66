import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runPreflight } from '../../src/features/extensions/preflight/index.js';
import { expectPreflightFailure } from './expect-preflight-failure.js';
import { createFixturePackage, type FixturePackage } from './fixture-package.js';

let fixture: FixturePackage;
beforeEach(async () => {
  fixture = await createFixturePackage();
});
afterEach(async () => {
  await fixture.cleanup();
});

describe('checkCatalogVersion', () => {
  test('passes when the package is exactly the release the catalog declares', async () => {
    const report = await runPreflight(fixture.dir, fixture.options({ expected: { id: 'acme.sample', version: '0.1.0' } }));
    expect(report.checks.find((result) => result.check === 'catalog-version')).toEqual({ check: 'catalog-version', ok: true });
  });

  test('does not run when no release is expected (developer registration)', async () => {
    const report = await runPreflight(fixture.dir, fixture.options());
    expect(report.checks.map((result) => result.check)).not.toContain('catalog-version');
  });

  test('fails with catalog_version_mismatch when the package version differs from the declared one', async () => {
    const report = await runPreflight(fixture.dir, fixture.options({ expected: { id: 'acme.sample', version: '0.2.0' } }));
    const failure = expectPreflightFailure(fixture, report, 'catalog-version', 'catalog_version_mismatch');
    expect(failure.message).toBe('the package is acme.sample@0.1.0, but the catalog declares acme.sample@0.2.0');
    expect(failure.details).toEqual({ expected: { id: 'acme.sample', version: '0.2.0' }, found: { id: 'acme.sample', version: '0.1.0' } });
    expect(failure.fix).toBe('Rebuild the catalog so its declaration matches the package, or install the version the catalog declares');
  });

  test('fails with catalog_version_mismatch when the manifest id differs from the declared one', async () => {
    const report = await runPreflight(fixture.dir, fixture.options({ expected: { id: 'acme.other', version: '0.1.0' } }));
    expectPreflightFailure(fixture, report, 'catalog-version', 'catalog_version_mismatch');
  });
});

describe('checkHostRange', () => {
  test('fails with host_incompatible when the host version is outside compatibility.svc', async () => {
    const report = await runPreflight(fixture.dir, fixture.options({ hostVersion: '1.0.0' }));
    const failure = expectPreflightFailure(fixture, report, 'host-range', 'host_incompatible');
    expect(failure.message).toBe('acme.sample needs svc >=0.3.0 <1.0.0; this host is 1.0.0');
    expect(failure.fix).toBe('Use an svc host in >=0.3.0 <1.0.0, or install a version of acme.sample made for svc 1.0.0');
  });

  test('treats a prerelease host as outside a range that names no prerelease (npm rules)', async () => {
    const report = await runPreflight(fixture.dir, fixture.options({ hostVersion: '0.4.0-dev.1' }));
    expectPreflightFailure(fixture, report, 'host-range', 'host_incompatible');
  });

  test('fails with manifest_invalid when compatibility.svc is not a semver range', async () => {
    await fixture.editPackageJson((pkg) => {
      pkg.svc.compatibility.svc = 'newest please';
    });
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'host-range', 'manifest_invalid');
    expect(failure.fix).toBe('Write "svc.compatibility.svc" as a semver range, for example ">=0.3.0 <1.0.0"');
  });
});

describe('checkNodeRange', () => {
  test('fails with node_incompatible when the Node version is outside compatibility.node', async () => {
    const report = await runPreflight(fixture.dir, fixture.options({ nodeVersion: '18.19.0' }));
    const failure = expectPreflightFailure(fixture, report, 'node-range', 'node_incompatible');
    expect(failure.message).toBe('acme.sample needs Node.js >=20; the host runs Node.js 18.19.0');
    expect(failure.fix).toBe('Run svc with a Node.js version in >=20, or install a version of acme.sample that supports Node.js 18.19.0');
  });

  test('accepts a v-prefixed Node version as process.version reports it', async () => {
    const report = await runPreflight(fixture.dir, fixture.options({ nodeVersion: 'v22.1.0' }));
    expect(report.checks.find((result) => result.check === 'node-range')?.ok).toBe(true);
  });

  test('fails with manifest_invalid when compatibility.node is not a semver range', async () => {
    await fixture.editPackageJson((pkg) => {
      pkg.svc.compatibility.node = 'twenty';
    });
    const report = await runPreflight(fixture.dir, fixture.options());
    expectPreflightFailure(fixture, report, 'node-range', 'manifest_invalid');
  });
});

describe('checkPermissions', () => {
  test('fails with permission_unknown, naming the unknown permission', async () => {
    await fixture.editPackageJson((pkg) => {
      pkg.svc.permissions = ['process:spawn', 'filesystem:write'];
    });
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'permissions', 'permission_unknown');
    expect(failure.message).toBe('unknown permission "filesystem:write" in svc.permissions');
    expect(failure.details?.unknown).toEqual(['filesystem:write']);
    expect(failure.fix).toBe(
      'Remove "filesystem:write"; known permissions are process:spawn, network:provider, config:provider, integration:mcp, integration:hooks, integration:skills',
    );
  });

  test('fails with manifest_invalid when a permission is listed twice', async () => {
    await fixture.editPackageJson((pkg) => {
      pkg.svc.permissions = ['process:spawn', 'network:provider', 'process:spawn'];
    });
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'permissions', 'manifest_invalid');
    expect(failure.details?.duplicates).toEqual(['process:spawn']);
    expect(failure.fix).toBe('List each permission once in "svc.permissions"');
  });

  test('accepts every permission the SDK knows', async () => {
    await fixture.editPackageJson((pkg) => {
      pkg.svc.permissions = ['process:spawn', 'network:provider', 'config:provider', 'integration:mcp', 'integration:hooks', 'integration:skills'];
    });
    const report = await runPreflight(fixture.dir, fixture.options());
    expect(report.checks.find((result) => result.check === 'permissions')?.ok).toBe(true);
  });

  test("fails with integration_file_not_allowed for a file outside the CLI's configuration, naming each", async () => {
    await fixture.editPackageJson((pkg) => {
      pkg.svc.command.default = 'claude';
      pkg.svc.integrationFiles = { user: ['~/.claude/settings.json', '~/.ssh/', '~/.bashrc', '~/.config/gh/', '~/.claude/.credentials.json'], project: ['.mcp.json', '.git/hooks/'] };
    });
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'permissions', 'integration_file_not_allowed');
    expect(failure.details?.outside).toEqual(['~/.ssh/', '~/.bashrc', '~/.config/gh/', '~/.claude/.credentials.json', '<project>/.git/hooks/']);
    expect(failure.fix).toContain('~/.claude/, ~/.claude.json, $CLAUDE_CONFIG_DIR/, <project>/.claude/, <project>/.mcp.json');
  });

  test('a provider for a CLI svc does not know may declare no integration file', async () => {
    await fixture.editPackageJson((pkg) => {
      pkg.svc.command.default = 'my-cli';
      pkg.svc.integrationFiles = { user: ['~/.my-cli/'], project: [] };
    });
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'permissions', 'integration_file_not_allowed');
    expect(failure.fix).toBe('Remove svc.integrationFiles; integrations may touch only the configuration of claude, codex, gemini, qwen');
  });
});
