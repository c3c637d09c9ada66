import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { checkManifest, runPreflight } from '../../src/features/extensions/preflight/index.js';
import { expectPreflightFailure } from './expect-preflight-failure.js';
import { createFixturePackage, type FixturePackage } from './fixture-package.js';

let fixture: FixturePackage;
beforeEach(async () => {
  fixture = await createFixturePackage();
});
afterEach(async () => {
  await fixture.cleanup();
});

describe('checkManifest', () => {
  test('accepts a valid package and fills the manifest defaults', async () => {
    await fixture.editPackageJson((pkg) => {
      delete pkg.svc.command.aliases;
      delete pkg.svc.command.knownPaths;
    });
    const result = await checkManifest(fixture.dir);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.pkg.svc.id).toBe('acme.sample');
    expect(result.pkg.svc.command.aliases).toEqual([]);
    expect(result.pkg.svc.command.knownPaths).toEqual({});
  });

  test('fails with manifest_unreadable when the folder has no package.json', async () => {
    await rm(join(fixture.dir, 'package.json'));
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'manifest', 'manifest_unreadable');
    expect(failure.message).toContain('ENOENT');
    expect(failure.fix).toBe('Point at the provider package folder, the one that holds package.json');
  });

  test('fails with manifest_unreadable when package.json is not JSON', async () => {
    await fixture.write('package.json', '{ "name": "@acme/svc-provider-sample", ');
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'manifest', 'manifest_unreadable');
    expect(failure.message).toMatch(/^package.json is not valid JSON/);
    expect(failure.fix).toBe('Fix the JSON syntax of package.json');
  });

  test('fails with manifest_missing_svc when package.json has no svc section', async () => {
    await fixture.editPackageJson((pkg) => {
      delete pkg.svc;
    });
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'manifest', 'manifest_missing_svc');
    expect(failure.fix).toBe('Add the "svc" manifest object to package.json (see the SDK authoring guide)');
  });

  test.each(['banana', '1.0', 'v1.0.0', '01.2.3'])('refuses the package version "%s" with package_version_invalid', async (version) => {
    await fixture.editPackageJson((pkg) => {
      pkg.version = version;
    });
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'manifest', 'package_version_invalid');
    expect(failure.message).toBe(`package.json's version ${JSON.stringify(version)} is not a semantic version`);
    expect(failure.fix).toBe('Set "version" in package.json to a semantic version such as 0.1.0 (major.minor.patch)');
  });

  test.each(['0.1.0', '1.2.3-beta.1', '2.0.0+build.7'])('accepts the semantic version "%s"', async (version) => {
    await fixture.editPackageJson((pkg) => {
      pkg.version = version;
    });
    const result = await checkManifest(fixture.dir);
    expect(result.ok).toBe(true);
  });

  test('fails with manifest_version_unsupported for a manifest version other than 1', async () => {
    await fixture.editPackageJson((pkg) => {
      pkg.svc.manifestVersion = 2;
    });
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'manifest', 'manifest_version_unsupported');
    expect(failure.message).toBe('svc.manifestVersion is 2; this host reads manifest version 1');
    expect(failure.fix).toBe('Set "svc.manifestVersion" to 1, or use a host that supports this manifest version');
  });

  test('fails with api_version_unsupported for an API version other than "1.0"', async () => {
    await fixture.editPackageJson((pkg) => {
      pkg.svc.apiVersion = '2.0';
    });
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'manifest', 'api_version_unsupported');
    expect(failure.message).toBe('svc.apiVersion is "2.0"; this host implements API version "1.0"');
    expect(failure.fix).toBe('Set "svc.apiVersion" to "1.0" and build against @svc-org/ai-sdk 0.1.x');
  });

  test('fails with kind_unsupported for a kind other than cli-provider', async () => {
    await fixture.editPackageJson((pkg) => {
      pkg.svc.kind = 'theme';
    });
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'manifest', 'kind_unsupported');
    expect(failure.fix).toBe('Set "svc.kind" to "cli-provider"');
  });

  test('fails with manifest_invalid and the ajv error paths when fields are missing, extra or mistyped', async () => {
    await fixture.editPackageJson((pkg) => {
      delete pkg.svc.display.name;
      pkg.svc.colour = 'blue';
      pkg.svc.command.versionArgs = [];
      pkg.type = 'commonjs';
    });
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'manifest', 'manifest_invalid');
    const paths = (failure.details?.errors as Array<{ path: string }>).map((error) => error.path);
    expect(paths).toEqual(expect.arrayContaining(['/svc/display/name', '/svc/colour', '/svc/command/versionArgs', '/type']));
    expect(failure.message).toMatch(/^package.json does not match the manifest schema: /);
    expect(failure.fix).toBe('Correct the listed fields; schemas/manifest.v1.schema.json describes every field');
  });

  test('fails with manifest_invalid when svc.publisher is not the prefix of the id', async () => {
    await fixture.editPackageJson((pkg) => {
      pkg.svc.publisher = 'someone-else';
    });
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'manifest', 'manifest_invalid');
    expect(failure.message).toBe('svc.publisher "someone-else" differs from the publisher part of svc.id "acme.sample"');
    expect(failure.fix).toBe('Set "svc.publisher" to "acme", or change "svc.id"');
  });

  test('fails with manifest_invalid when the package name does not end in svc-provider-<id name>', async () => {
    await fixture.editPackageJson((pkg) => {
      pkg.name = '@acme/svc-provider-other';
    });
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'manifest', 'manifest_invalid');
    expect(failure.fix).toBe('Rename the package to "@acme/svc-provider-sample", or change "svc.id"');
  });

  test('fails with manifest_invalid when the package name lacks the svc-provider- shape', async () => {
    await fixture.editPackageJson((pkg) => {
      pkg.name = 'sample-provider';
    });
    const report = await runPreflight(fixture.dir, fixture.options());
    const failure = expectPreflightFailure(fixture, report, 'manifest', 'manifest_invalid');
    expect(failure.details?.errors).toEqual([{ path: '/name', message: 'must match pattern "^@[a-z0-9][a-z0-9-._]*\\/svc-provider-[a-z0-9][a-z0-9-]*$"' }]);
  });
});
