import { mkdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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

async function setEntry(target: unknown): Promise<void> {
  await fixture.editPackageJson((pkg) => {
    pkg.exports = { './svc-cli-provider': target };
  });
}

describe('checkEntry', () => {
  test('resolves the entry to its real path inside the package', async () => {
    const report = await runPreflight(fixture.dir, fixture.options());
    expect(report.entryPath).toBe(join(await realpath(fixture.dir), 'dist/svc-cli-provider.js'));
  });

  test('takes the import condition of a conditions object, then default', async () => {
    await fixture.write('dist/other.js', 'export {};\n');
    await setEntry({ types: './dist/index.d.ts', import: './dist/svc-cli-provider.js', default: './dist/other.js' });
    let report = await runPreflight(fixture.dir, fixture.options());
    expect(report.entryPath).toBe(join(await realpath(fixture.dir), 'dist/svc-cli-provider.js'));

    await setEntry({ default: './dist/other.js' });
    report = await runPreflight(fixture.dir, fixture.options());
    expect(report.entryPath).toBe(join(await realpath(fixture.dir), 'dist/other.js'));
  });

  test('accepts a link that stays inside the package', async () => {
    await symlink('svc-cli-provider.js', join(fixture.dir, 'dist/linked.js'));
    await setEntry('./dist/linked.js');
    const report = await runPreflight(fixture.dir, fixture.options());
    expect(report.ok).toBe(true);
    expect(report.entryPath).toBe(join(await realpath(fixture.dir), 'dist/svc-cli-provider.js'));
  });

  test('fails with entry_missing when exports has no ./svc-cli-provider', async () => {
    await fixture.editPackageJson((pkg) => {
      pkg.exports = { '.': './dist/svc-cli-provider.js' };
    });
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'entry', 'entry_missing');
    expect(failure.message).toBe('package.json has no exports["./svc-cli-provider"] path');
    expect(failure.fix).toBe('Set exports["./svc-cli-provider"] to the built entry file, for example "./dist/svc-cli-provider.js"');
  });

  test('fails with entry_missing when the entry file was not built', async () => {
    await rm(join(fixture.dir, 'dist'), { recursive: true });
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'entry', 'entry_missing');
    expect(failure.message).toBe('exports["./svc-cli-provider"] "./dist/svc-cli-provider.js" does not exist');
    expect(failure.fix).toBe('Build the provider so ./dist/svc-cli-provider.js exists (for example `pnpm build`), or correct exports["./svc-cli-provider"]');
  });

  test('fails with entry_missing when the entry is a folder', async () => {
    await setEntry('./dist');
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'entry', 'entry_missing');
    expect(failure.message).toBe('exports["./svc-cli-provider"] "./dist" is not a regular file');
  });

  test('fails with entry_missing when the target does not start with ./ as Node requires', async () => {
    await setEntry('dist/svc-cli-provider.js');
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'entry', 'entry_missing');
    expect(failure.fix).toBe('Write exports["./svc-cli-provider"] as "./dist/svc-cli-provider.js"');
  });

  test('fails with entry_outside_package for an absolute target', async () => {
    const outside = join(fixture.root, 'outside.js');
    await writeFile(outside, 'export {};\n');
    await setEntry(outside);
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'entry', 'entry_outside_package');
    expect(failure.fix).toBe('Point exports["./svc-cli-provider"] at a file inside the package (no absolute path, no "..", no link leaving the package)');
  });

  test('fails with entry_outside_package for a target that climbs out with ..', async () => {
    await writeFile(join(fixture.root, 'outside.js'), 'export {};\n');
    await setEntry('./dist/../../outside.js');
    const report = await runPreflight(fixture.dir, fixture.options());
    expectPreflightFailure(fixture, report, 'entry', 'entry_outside_package');
  });

  test('fails with entry_outside_package when the entry file is a link to a file outside the package', async () => {
    const outside = join(fixture.root, 'outside.js');
    await writeFile(outside, 'export {};\n');
    await rm(join(fixture.dir, 'dist/svc-cli-provider.js'));
    await symlink(outside, join(fixture.dir, 'dist/svc-cli-provider.js'));
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'entry', 'entry_outside_package');
    expect(failure.details?.resolved).toBe(await realpath(outside));
  });

  test('fails with entry_outside_package when a parent folder of the entry is a link leaving the package', async () => {
    const outsideDist = join(fixture.root, 'elsewhere/dist');
    await mkdir(outsideDist, { recursive: true });
    await writeFile(join(outsideDist, 'svc-cli-provider.js'), 'export {};\n');
    await rm(join(fixture.dir, 'dist'), { recursive: true });
    await symlink(outsideDist, join(fixture.dir, 'dist'));
    const report = await runPreflight(fixture.dir, fixture.options());
    expectPreflightFailure(fixture, report, 'entry', 'entry_outside_package');
  });

  test('judges containment against the real package path when the package folder itself is reached through a link', async () => {
    const alias = join(fixture.root, 'pkg-link');
    await symlink(fixture.dir, alias);
    const report = await runPreflight(alias, fixture.options());
    expect(report.ok).toBe(true);
    expect(report.entryPath).toBe(join(await realpath(fixture.dir), 'dist/svc-cli-provider.js'));
  });
});
