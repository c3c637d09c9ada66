import { readFileSync } from 'node:fs';
import { ConfigSchemaDialect, ProviderPackageSchema } from '@svc-org/ai-sdk';
import { satisfies } from 'semver';
import { expect, test } from 'vitest';
import { loadRecording } from './support/load-recording.js';

const packageJson: unknown = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const manifest = ProviderPackageSchema.parse(packageJson).svc;

test('the package is a valid contract v1 provider package', () => {
  const pkg = ProviderPackageSchema.parse(packageJson);
  expect(pkg.name).toBe('@svc-community/svc-provider-qwen-code');
  expect(pkg.exports).toEqual({ './svc-cli-provider': './dist/svc-cli-provider.js' });
  expect(pkg.files).toEqual(['dist', 'config.schema.json']);
  expect(manifest.id).toBe('svc-community.qwen-code');
  expect(manifest.publisher).toBe('svc-community');
});

test('it asks for exactly process:spawn and network:provider', () => {
  expect(manifest.permissions).toEqual(['process:spawn', 'network:provider']);
});

test('it declares only what it implements: sessions and queries, no models, no integrations', () => {
  expect(manifest.capabilities).toEqual({
    sessions: { fresh: true, resume: true },
    query: { generate: true, stream: true },
    models: false,
  });
});

test('the recorded CLI versions satisfy its CLI range and an out-of-range one does not', () => {
  expect(manifest.command.versionArgs).toEqual(['--version']);
  expect(manifest.compatibility).toEqual({ svc: '>=0.3.0 <1.0.0', node: '>=20', cli: '>=0.18.0 <1.0.0' });
  for (const name of ['version', 'version.0.21.2']) {
    expect(satisfies(loadRecording(name).stdout.trim(), manifest.compatibility.cli!)).toBe(true);
  }
  expect(satisfies('0.15.10', manifest.compatibility.cli!)).toBe(false);
});

test('its config schema is valid and empty: without config:provider it could not read settings', () => {
  const schema = ConfigSchemaDialect.parse(JSON.parse(readFileSync(new URL('../config.schema.json', import.meta.url), 'utf8')));
  expect(manifest.configSchema).toBe('config.schema.json');
  expect(schema.additionalProperties).toBe(false);
  expect(schema.properties).toEqual({});
  expect(manifest.permissions).not.toContain('config:provider');
});
