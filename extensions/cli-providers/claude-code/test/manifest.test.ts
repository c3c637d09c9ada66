import { ConfigSchemaDialect, PERMISSION_NAMES, ProviderPackageSchema, sensitiveKeys } from '@svc-org/ai-sdk';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { svcCliPlugin, ClaudeCodeAdapter } from '../src/index.js';
import { PROVIDER_DIR, REPO_ROOT } from './support/paths.js';

const pkg = JSON.parse(readFileSync(join(PROVIDER_DIR, 'package.json'), 'utf8'));

describe('the package', () => {
  test('package.json is a valid provider package for svc-official.claude-code', () => {
    const parsed = ProviderPackageSchema.parse(pkg);
    expect(parsed.name).toBe('@svc-official/svc-provider-claude-code');
    expect(parsed.svc.id).toBe('svc-official.claude-code');
    expect(parsed.svc.publisher).toBe('svc-official');
    expect(parsed.exports['./svc-cli-provider']).toBe('./dist/svc-cli-provider.js');
    expect(parsed.files).toEqual(['dist', 'config.schema.json']);
  });

  test('the CLI range covers the version the recordings were made with', () => {
    expect(pkg.svc.compatibility).toEqual({ svc: '>=0.3.0 <1.0.0', node: '>=20', cli: '>=2.1.197 <2.2.0' });
  });

  test('it asks for exactly the permissions it uses, and claims exactly what it implements', () => {
    // process:spawn runs the CLI; network:provider lets it call its API; config:provider reads model,
    // permission mode, API key and extra args; one integration permission per integration.
    expect(pkg.svc.permissions).toEqual([
      'process:spawn',
      'network:provider',
      'config:provider',
      'integration:mcp',
      'integration:hooks',
      'integration:skills',
    ]);
    expect(pkg.svc.permissions.every((name: string) => PERMISSION_NAMES.includes(name as never))).toBe(true);
    const adapter = new ClaudeCodeAdapter();
    expect(pkg.svc.capabilities).toEqual({
      sessions: { fresh: true, resume: true },
      query: { generate: typeof adapter.generate === 'function', stream: typeof adapter.stream === 'function' },
      models: typeof adapter.models === 'function',
      integrations: { mcp: Boolean(adapter.mcp), hooks: Boolean(adapter.hooks), skills: Boolean(adapter.skills) },
    });
  });

  test('the config schema is the svc dialect and marks the API key sensitive', () => {
    const schema = ConfigSchemaDialect.parse(JSON.parse(readFileSync(join(PROVIDER_DIR, pkg.svc.configSchema), 'utf8')));
    expect(Object.keys(schema.properties)).toEqual(['model', 'permissionMode', 'apiKey', 'extraArgs']);
    expect(sensitiveKeys(schema)).toEqual(['apiKey']);
  });

  test('the plugin export is made with defineCliPlugin', () => {
    expect(svcCliPlugin.$marker).toBe('svc.cli-plugin');
    expect(svcCliPlugin.apiVersion).toBe('1.0');
  });

  test('the built entry imports only node: builtins', () => {
    execFileSync(process.execPath, [join(REPO_ROOT, 'scripts/build-provider.mjs'), PROVIDER_DIR]);
    const built = readFileSync(join(PROVIDER_DIR, 'dist/svc-cli-provider.js'), 'utf8');
    const imports = [...built.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([^"']+)["']/g)].map((match) => match[1]);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((name) => !name!.startsWith('node:'))).toEqual([]);
  });
});
