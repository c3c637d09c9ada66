import { ConfigSchemaDialect, isPermission, ProviderPackageSchema, sensitiveKeys } from '@svc-org/ai-sdk';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, test } from 'vitest';
import { DEFAULT_PROVIDER_SETTINGS } from '../src/provider-settings.js';
import { svcCliPlugin } from '../src/index.js';
import { readRecording } from './recording-host.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
const schema = JSON.parse(readFileSync(join(root, 'config.schema.json'), 'utf8')) as Record<string, unknown>;

describe('package manifest', () => {
  test('validates against the contract and names the official id, publisher and entry', () => {
    const parsed = ProviderPackageSchema.parse(pkg);
    expect(parsed.name).toBe('@svc-official/svc-provider-gemini-cli');
    expect(parsed.svc.id).toBe('svc-official.gemini-cli');
    expect(parsed.svc.publisher).toBe('svc-official');
    expect(parsed.exports).toEqual({ './svc-cli-provider': './dist/svc-cli-provider.js' });
    expect(parsed.files).toEqual(['dist', 'config.schema.json']);
    expect(parsed.svc.command).toMatchObject({ default: 'gemini', versionArgs: ['--version'] });
  });

  test('requests only known permissions, and exactly what the adapter uses', () => {
    const { permissions } = ProviderPackageSchema.parse(pkg).svc;
    expect(permissions.every(isPermission)).toBe(true);
    expect(permissions).toEqual([
      'process:spawn',
      'network:provider',
      'config:provider',
      'integration:mcp',
      'integration:hooks',
      'integration:skills',
    ]);
  });

  test('capabilities say what the adapter implements', async () => {
    const { capabilities } = ProviderPackageSchema.parse(pkg).svc;
    const adapter = await svcCliPlugin.createAdapter();
    expect(capabilities).toEqual({
      sessions: { fresh: true, resume: true },
      query: { generate: true, stream: true },
      models: true,
      integrations: { mcp: true, hooks: true, skills: true },
    });
    expect([typeof adapter.stream, typeof adapter.models, typeof adapter.mcp, typeof adapter.hooks, typeof adapter.skills]).toEqual([
      'function',
      'function',
      'object',
      'object',
      'object',
    ]);
  });

  test('the CLI range holds the version the recordings were made with, and not the next minor', () => {
    const { compatibility } = ProviderPackageSchema.parse(pkg).svc;
    const recorded = readRecording('version').stdout.trim();
    expect(recorded).toBe('0.61.0');
    expect(semver.satisfies(recorded, compatibility.cli!)).toBe(true);
    expect(semver.satisfies('0.62.0', compatibility.cli!)).toBe(false);
    expect(semver.satisfies('0.59.0', compatibility.cli!)).toBe(true);
    expect(semver.satisfies('0.58.0', compatibility.cli!)).toBe(false);
    expect(compatibility).toMatchObject({ svc: '>=0.3.0 <1.0.0', node: '>=20' });
  });
});

describe('config schema', () => {
  test('is the contract dialect, a valid JSON Schema 2020-12, and its defaults are the adapter defaults', () => {
    const dialect = ConfigSchemaDialect.parse(schema);
    expect(sensitiveKeys(dialect)).toEqual(['apiKey']);
    const validate = new Ajv2020({ strict: false }).compile(schema);
    const defaults = Object.fromEntries(Object.entries(dialect.properties).map(([key, property]) => [key, property.default]));
    expect(validate(defaults)).toBe(true);
    expect(defaults).toEqual(DEFAULT_PROVIDER_SETTINGS);
    expect(validate({ ...defaults, approvalMode: 'always' })).toBe(false);
    expect(validate({ ...defaults, baseUrl: 'http://x' })).toBe(false);
  });
});
