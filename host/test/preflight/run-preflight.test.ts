import { existsSync } from 'node:fs';
import { realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { SvcError } from '@svc-org/ai-sdk';
import { formatPreflightReport, PreflightError, runPreflight } from '../../src/features/extensions/preflight/index.js';
import { createFixturePackage, validConfigSchema, type FixturePackage } from './fixture-package.js';

let fixture: FixturePackage;
beforeEach(async () => {
  fixture = await createFixturePackage();
});
afterEach(async () => {
  await fixture.cleanup();
});

/** Breaks three independent checks at once: permissions, entry and the CLI. */
async function breakThreeChecks(): Promise<void> {
  await fixture.editPackageJson((pkg) => {
    pkg.svc.permissions = ['process:spawn', 'telepathy'];
  });
  await rm(join(fixture.dir, 'dist'), { recursive: true });
  await fixture.replayCli('bin', 'sample-cli', 'claude-code-2.1.197.stdout');
}

describe('runPreflight', () => {
  test('the fixture entry leaves its marker when it is evaluated, so its absence means something', async () => {
    const report = await runPreflight(fixture.dir, fixture.options());
    expect(existsSync(fixture.marker)).toBe(false);
    const plugin = await import(pathToFileURL(report.entryPath!).href);
    expect(existsSync(fixture.marker)).toBe(true);
    expect(typeof plugin.svcCliPlugin.createAdapter).toBe('function');
  });

  test('passes a valid package, returns what the loader needs, and evaluates none of its code', async () => {
    const report = await runPreflight(fixture.dir, fixture.options({ expected: { id: 'acme.sample', version: '0.1.0' } }));
    expect(report.ok).toBe(true);
    expect(report.checks.map((result) => [result.check, result.ok])).toEqual([
      ['manifest', true],
      ['catalog-version', true],
      ['host-range', true],
      ['node-range', true],
      ['permissions', true],
      ['entry', true],
      ['config-schema', true],
      ['cli-dependency', true],
    ]);
    expect(report.skipped).toEqual([]);
    expect(report.manifest?.id).toBe('acme.sample');
    expect(report.pkg?.version).toBe('0.1.0');
    expect(report.entryPath).toBe(join(await realpath(fixture.dir), 'dist/svc-cli-provider.js'));
    expect(report.configSchema?.additionalProperties).toBe(false);
    expect(report.cli).toEqual({ command: join(fixture.root, 'bin/sample-cli'), version: '0.24.4', source: 'default' });
    expect(existsSync(fixture.marker)).toBe(false);
  });

  test('stops at the first failure before loading and names the checks it did not run', async () => {
    await breakThreeChecks();
    const report = await runPreflight(fixture.dir, fixture.options());
    expect(report.ok).toBe(false);
    expect(report.checks.filter((result) => !result.ok).map((result) => result.check)).toEqual(['permissions']);
    expect(report.skipped).toEqual(['entry', 'config-schema', 'cli-dependency']);
    expect(existsSync(fixture.marker)).toBe(false);
  });

  test('runs every check in all mode and reports each failure', async () => {
    await breakThreeChecks();
    const report = await runPreflight(fixture.dir, fixture.options({ mode: 'all' }));
    expect(report.ok).toBe(false);
    expect(report.checks.filter((result) => !result.ok).map((result) => (result.ok ? '' : result.code))).toEqual([
      'permission_unknown',
      'entry_missing',
      'cli_incompatible',
    ]);
    expect(report.skipped).toEqual([]);
    expect(existsSync(fixture.marker)).toBe(false);
  });

  test('skips every other check in all mode when the manifest itself is unusable', async () => {
    await fixture.write('package.json', 'not json');
    const report = await runPreflight(fixture.dir, fixture.options({ mode: 'all', expected: { id: 'acme.sample', version: '0.1.0' } }));
    expect(report.checks.map((result) => result.check)).toEqual(['manifest']);
    expect(report.skipped).toEqual(['catalog-version', 'host-range', 'node-range', 'permissions', 'entry', 'config-schema', 'cli-dependency']);
  });

  test('checks schemas with the same $id in two packages, and one that reuses the meta-schema id, without cross-talk', async () => {
    const second = await createFixturePackage();
    try {
      for (const target of [fixture, second]) {
        await target.write('config.schema.json', JSON.stringify({ ...validConfigSchema(), $id: 'https://json-schema.org/draft/2020-12/schema' }));
      }
      expect((await runPreflight(fixture.dir, fixture.options())).ok).toBe(true);
      expect((await runPreflight(second.dir, second.options())).ok).toBe(true);
      await second.write('config.schema.json', JSON.stringify({ ...validConfigSchema(), type: 'array' }));
      const report = await runPreflight(second.dir, second.options());
      expect(report.checks.at(-1)).toMatchObject({ check: 'config-schema', code: 'config_schema_invalid' });
    } finally {
      await second.cleanup();
    }
  });
});

describe('runPreflight options', () => {
  test('takes process.env as it is and defaults platform, home and Node version to this process', async () => {
    const report = await runPreflight(fixture.dir, {
      hostVersion: '0.3.0',
      env: process.env,
      commandOverride: join(fixture.root, 'bin/sample-cli'),
      mode: 'all',
    });
    expect(report.ok).toBe(true);
    expect(report.cli?.source).toBe('override');
  });

  test.each([
    [{ hostVersion: 'latest' }, 'runPreflight: options.hostVersion must be a semver version'],
    [{ nodeVersion: '20' }, 'runPreflight: options.nodeVersion must be a semver version'],
    [{ mode: 'some' }, 'runPreflight: options.mode must be one of stop-at-first-failure, all'],
    [{ probeTimeoutMs: 0 }, 'runPreflight: options.probeTimeoutMs must be a positive integer'],
    [{ env: 'PATH=/bin' }, 'runPreflight: options.env must be an object of strings'],
    [{ commandOverride: '' }, 'runPreflight: options.commandOverride must not be empty'],
    [{ expected: { id: 'acme.sample' } }, 'runPreflight: options.expected must be { id, version } with non-empty strings'],
  ])('refuses %o with a message naming the option and the rule', async (override, message) => {
    await expect(runPreflight(fixture.dir, { ...fixture.options(), ...(override as object) })).rejects.toThrow(new TypeError(message));
  });
});

describe('formatPreflightReport', () => {
  test('prints one line per check, each failure with its code and fix', async () => {
    await breakThreeChecks();
    const report = await runPreflight(fixture.dir, fixture.options({ mode: 'all' }));
    const cli = join(fixture.root, 'bin/sample-cli');
    expect(formatPreflightReport(report).split('\n')).toEqual([
      '✓ manifest  acme.sample@0.1.0',
      '✓ host-range',
      '✓ node-range',
      '✗ permissions  permission_unknown: unknown permission "telepathy" in svc.permissions — fix: Remove "telepathy"; known permissions are process:spawn, network:provider, config:provider, integration:mcp, integration:hooks, integration:skills',
      '✗ entry  entry_missing: exports["./svc-cli-provider"] "./dist/svc-cli-provider.js" does not exist — fix: Build the provider so ./dist/svc-cli-provider.js exists (for example `pnpm build`), or correct exports["./svc-cli-provider"]',
      '✓ config-schema',
      `✗ cli-dependency  cli_incompatible: ${cli} is version 2.1.197; acme.sample needs >=0.18.0 <1.0.0 — fix: Install a version of \`sample-cli\` in >=0.18.0 <1.0.0, or a version of acme.sample that supports 2.1.197`,
      '',
    ]);
  });

  test('shows what a passing run resolved and which checks were skipped', async () => {
    let report = await runPreflight(fixture.dir, fixture.options());
    const text = formatPreflightReport(report);
    expect(text).toContain(`✓ entry  ${join(await realpath(fixture.dir), 'dist/svc-cli-provider.js')}\n`);
    expect(text).toContain(`✓ cli-dependency  0.24.4 at ${join(fixture.root, 'bin/sample-cli')}\n`);

    await fixture.editPackageJson((pkg) => {
      pkg.svc.kind = 'theme';
    });
    report = await runPreflight(fixture.dir, fixture.options());
    expect(formatPreflightReport(report).split('\n').slice(0, 3)).toEqual([
      '✗ manifest  kind_unsupported: svc.kind is "theme"; this host loads only "cli-provider" extensions — fix: Set "svc.kind" to "cli-provider"',
      '- host-range  skipped (needs a valid manifest)',
      '- node-range  skipped (needs a valid manifest)',
    ]);
  });
});

describe('PreflightError', () => {
  test('carries the failed check code, the fix and the plugin id, and is recognised by SvcError.isInstance', async () => {
    const report = await runPreflight(fixture.dir, fixture.options({ hostVersion: '2.0.0' }));
    const error = PreflightError.fromReport(report);
    expect(error).toBeDefined();
    expect(SvcError.isInstance(error)).toBe(true);
    expect(error?.code).toBe('host_incompatible');
    expect(error?.check).toBe('host-range');
    expect(error?.pluginId).toBe('acme.sample');
    expect(error?.message).toBe('preflight host-range failed: acme.sample needs svc >=0.3.0 <1.0.0; this host is 2.0.0');
    expect(error?.toJSON().details).toMatchObject({ check: 'host-range', fix: expect.stringMatching(/^Use an svc host in/) });
  });

  test('is undefined for a passing report', async () => {
    expect(PreflightError.fromReport(await runPreflight(fixture.dir, fixture.options()))).toBeUndefined();
  });
});
