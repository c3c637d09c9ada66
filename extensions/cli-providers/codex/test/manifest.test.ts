import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ConfigSchemaDialect, PERMISSION_NAMES, ProviderPackageSchema, sensitiveKeys } from '@svc-org/ai-sdk';
import { runPreflight } from '@svc-org/host/features/extensions/preflight';
import { CodexAdapter } from '../src/codex-adapter.js';
import { PROVIDER_DIR, REPO_ROOT, STAND_IN } from './support/paths.js';

const pkg = JSON.parse(readFileSync(join(PROVIDER_DIR, 'package.json'), 'utf8'));
const schema = JSON.parse(readFileSync(join(PROVIDER_DIR, 'config.schema.json'), 'utf8'));

beforeAll(() => {
  execFileSync(process.execPath, [join(REPO_ROOT, 'scripts/build-provider.mjs'), PROVIDER_DIR]);
});

describe('the package', () => {
  test('validates against the contract and names the official ids', () => {
    const parsed = ProviderPackageSchema.parse(pkg);
    expect(parsed.name).toBe('@svc-official/svc-provider-codex');
    expect(parsed.svc.id).toBe('svc-official.codex');
    expect(parsed.svc.publisher).toBe('svc-official');
    expect(parsed.version).toBe('0.1.0');
    expect(parsed.svc.permissions.every((permission) => (PERMISSION_NAMES as string[]).includes(permission))).toBe(true);
  });

  test('capabilities say what the adapter implements, and nothing else', () => {
    const adapter = new CodexAdapter();
    expect(pkg.svc.capabilities).toEqual({
      sessions: { fresh: true, resume: true },
      query: { generate: true, stream: true },
      models: typeof adapter.models === 'function',
      integrations: { mcp: adapter.mcp !== undefined, hooks: adapter.hooks !== undefined, skills: adapter.skills !== undefined },
    });
  });

  test('the config schema is the 2020-12 dialect; only the API key is sensitive', () => {
    expect(ConfigSchemaDialect.parse(schema).additionalProperties).toBe(false);
    expect(sensitiveKeys(schema)).toEqual(['apiKey']);
  });

  test('the built entry imports nothing but node: builtins', () => {
    const bundle = readFileSync(join(PROVIDER_DIR, 'dist/svc-cli-provider.js'), 'utf8');
    const imports = [...bundle.matchAll(/(?:^|[;\s])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|require\(\s*["']([^"']+)["']\s*\)/g)].map(
      (match) => match[1] ?? match[2] ?? match[3],
    );
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((specifier) => !specifier!.startsWith('node:'))).toEqual([]);
  });
});

describe("the host's preflight against the codex stand-in", () => {
  test('passes every check with the recorded codex-cli 0.169.0', async () => {
    const report = await runPreflight(PROVIDER_DIR, {
      hostVersion: '0.3.0',
      env: { PATH: process.env.PATH ?? '' },
      commandOverride: STAND_IN,
      // The version probe runs here as it does for an enabled provider granted process:spawn.
      cliProbe: 'run',
      mode: 'all',
    });
    expect(report.checks.filter((check) => !check.ok)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.cli).toMatchObject({ version: '0.169.0' });
  });

  test('refuses a CLI version outside the range the adapter was proven on', async () => {
    const report = await runPreflight(PROVIDER_DIR, {
      hostVersion: '0.3.0',
      env: { PATH: process.env.PATH ?? '', CODEX_FAKE_VERSION: '0.170.0' },
      commandOverride: STAND_IN,
      // The version probe runs here as it does for an enabled provider granted process:spawn.
      cliProbe: 'run',
      mode: 'all',
    });
    expect(report.ok).toBe(false);
    expect(report.checks.find((check) => !check.ok)).toMatchObject({ check: 'cli-dependency', code: 'cli_incompatible' });
  });
});
