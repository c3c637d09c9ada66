import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runPreflight } from '../../src/features/extensions/preflight/index.js';
import { expectPreflightFailure } from './expect-preflight-failure.js';
import { createFixturePackage, validConfigSchema, type FixturePackage } from './fixture-package.js';

let fixture: FixturePackage;
beforeEach(async () => {
  fixture = await createFixturePackage();
});
afterEach(async () => {
  await fixture.cleanup();
});

async function writeSchema(change: (schema: Record<string, any>) => void): Promise<void> {
  const schema = validConfigSchema();
  change(schema);
  await fixture.write('config.schema.json', JSON.stringify(schema));
}

async function preflight() {
  return runPreflight(fixture.dir, fixture.options());
}

describe('checkConfigSchema', () => {
  test('returns the parsed schema of a valid package', async () => {
    const report = await preflight();
    expect(report.ok).toBe(true);
    expect(Object.keys(report.configSchema?.properties ?? {})).toEqual(['model', 'apiKey', 'verbose']);
    expect(report.configSchema?.properties.apiKey?.['x-svc']?.sensitive).toBe(true);
  });

  test('a schema checked before is checked again when its file changes, and a caller cannot change what the next load gets', async () => {
    const first = await preflight();
    expect(first.ok).toBe(true);
    first.configSchema!.properties.model!.description = 'changed by the caller';
    const again = await preflight();
    expect(again.configSchema?.properties.model?.description).not.toBe('changed by the caller');
    expect(again.configSchema).toEqual((await preflight()).configSchema);
    await writeSchema((schema) => {
      schema.properties.model.tpye = 'string';
    });
    expectPreflightFailure(fixture, await preflight(), 'config-schema', 'config_schema_invalid');
    await writeSchema(() => undefined);
    expect((await preflight()).ok).toBe(true);
  });

  test('passes without a schema when the manifest declares none', async () => {
    await fixture.editPackageJson((pkg) => {
      delete pkg.svc.configSchema;
    });
    const report = await preflight();
    expect(report.ok).toBe(true);
    expect(report.configSchema).toBeUndefined();
  });

  test('fails with config_schema_missing when the file does not exist', async () => {
    await rm(join(fixture.dir, 'config.schema.json'));
    const failure = expectPreflightFailure(fixture, await preflight(), 'config-schema', 'config_schema_missing');
    expect(failure.message).toBe('svc.configSchema "./config.schema.json" does not exist in the package');
    expect(failure.fix).toBe('Add ./config.schema.json to the package (and to "files"), or correct "svc.configSchema"');
  });

  test('fails with config_schema_invalid when the file is not JSON', async () => {
    await fixture.write('config.schema.json', '{ "type": "object", ');
    const failure = expectPreflightFailure(fixture, await preflight(), 'config-schema', 'config_schema_invalid');
    expect(failure.fix).toBe('Fix the JSON syntax of ./config.schema.json');
  });

  test('fails with config_schema_invalid when the file is not a valid JSON Schema 2020-12', async () => {
    await writeSchema((schema) => {
      schema.properties.model.type = 'text';
      schema.required = 'model';
    });
    const failure = expectPreflightFailure(fixture, await preflight(), 'config-schema', 'config_schema_invalid');
    expect(failure.message).toMatch(/^\.\/config\.schema\.json is not a valid JSON Schema 2020-12: /);
    const paths = (failure.details?.errors as Array<{ path: string }>).map((error) => error.path);
    expect(paths).toEqual(expect.arrayContaining(['/properties/model/type', '/required']));
  });

  test('fails with config_schema_invalid when it declares another JSON Schema draft', async () => {
    await writeSchema((schema) => {
      schema.$schema = 'http://json-schema.org/draft-07/schema#';
    });
    const failure = expectPreflightFailure(fixture, await preflight(), 'config-schema', 'config_schema_invalid');
    expect(failure.fix).toBe('Set "$schema" to "https://json-schema.org/draft/2020-12/schema"');
  });

  test('fails with config_schema_invalid when the top level is not an object', async () => {
    await writeSchema((schema) => {
      schema.type = 'array';
    });
    const failure = expectPreflightFailure(fixture, await preflight(), 'config-schema', 'config_schema_invalid');
    expect(failure.fix).toBe('Set "type": "object" at the top of ./config.schema.json');
  });

  test('fails with config_schema_invalid when the top level allows additional properties', async () => {
    await writeSchema((schema) => {
      delete schema.additionalProperties;
    });
    const failure = expectPreflightFailure(fixture, await preflight(), 'config-schema', 'config_schema_invalid');
    expect(failure.fix).toBe('Add "additionalProperties": false at the top of ./config.schema.json');
  });

  test('fails with config_schema_invalid for an x-svc control outside the dialect', async () => {
    await writeSchema((schema) => {
      schema.properties.model['x-svc'].control = 'slider';
    });
    const failure = expectPreflightFailure(fixture, await preflight(), 'config-schema', 'config_schema_invalid');
    expect(failure.details?.errors).toContainEqual({ path: '/properties/model/x-svc/control', message: 'must be equal to one of the allowed values' });
    expect(failure.fix).toBe('Correct ./config.schema.json at the listed paths; schemas/config-schema.v1.schema.json describes the dialect');
  });

  test('fails with config_schema_invalid for an unknown x-svc key', async () => {
    await writeSchema((schema) => {
      schema.properties.apiKey['x-svc'].secret = true;
    });
    const failure = expectPreflightFailure(fixture, await preflight(), 'config-schema', 'config_schema_invalid');
    expect(failure.details?.errors).toContainEqual({ path: '/properties/apiKey/x-svc/secret', message: 'must NOT have additional properties' });
  });

  test('fails with config_schema_invalid for an invalid x-svc nested below a property', async () => {
    await writeSchema((schema) => {
      schema.properties.tags = { type: 'array', items: { type: 'string', 'x-svc': { order: 'first' } } };
    });
    const failure = expectPreflightFailure(fixture, await preflight(), 'config-schema', 'config_schema_invalid');
    expect(failure.message).toMatch(/does not compile: .*x-svc/);
  });

  test('fails with config_schema_invalid for a misspelt keyword rather than ignoring it', async () => {
    await writeSchema((schema) => {
      schema.properties.model = { tpye: 'string' };
    });
    const failure = expectPreflightFailure(fixture, await preflight(), 'config-schema', 'config_schema_invalid');
    expect(failure.message).toContain('unknown keyword: "tpye"');
  });

  test('fails with config_schema_invalid for a path that climbs out of the package', async () => {
    await writeFile(join(fixture.root, 'config.schema.json'), JSON.stringify(validConfigSchema()));
    await fixture.editPackageJson((pkg) => {
      pkg.svc.configSchema = '../config.schema.json';
    });
    const failure = expectPreflightFailure(fixture, await preflight(), 'config-schema', 'config_schema_invalid');
    expect(failure.fix).toBe('Keep the config schema file inside the package (no absolute path, no "..", no link leaving the package)');
  });

  test('fails with config_schema_invalid when the schema file is a link to a file outside the package', async () => {
    const outside = join(fixture.root, 'outside.schema.json');
    await writeFile(outside, JSON.stringify(validConfigSchema()));
    await rm(join(fixture.dir, 'config.schema.json'));
    await symlink(outside, join(fixture.dir, 'config.schema.json'));
    const failure = expectPreflightFailure(fixture, await preflight(), 'config-schema', 'config_schema_invalid');
    expect(failure.message).toMatch(/resolves through a link to .*outside\.schema\.json, outside the package$/);
  });

  test('fails with config_schema_invalid when a parent folder of the schema is a link leaving the package', async () => {
    const outsideDir = join(fixture.root, 'elsewhere');
    await mkdir(outsideDir);
    await writeFile(join(outsideDir, 'config.schema.json'), JSON.stringify(validConfigSchema()));
    await symlink(outsideDir, join(fixture.dir, 'schemas'));
    await fixture.editPackageJson((pkg) => {
      pkg.svc.configSchema = 'schemas/config.schema.json';
    });
    expectPreflightFailure(fixture, await preflight(), 'config-schema', 'config_schema_invalid');
  });
});
