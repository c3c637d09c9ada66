// The built entry is what the host loads: one ESM file that imports only Node builtins (the SDK is bundled).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isCliPlugin } from '@svc-org/ai-sdk';
import { beforeAll, expect, test } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const builder = fileURLToPath(new URL('../../../../scripts/build-provider.mjs', import.meta.url));
const entry = fileURLToPath(new URL('../dist/svc-cli-provider.js', import.meta.url));

beforeAll(() => {
  execFileSync(process.execPath, [builder, packageDir], { stdio: 'pipe' });
}, 60_000);

test('the bundle imports nothing but node: builtins', () => {
  const code = readFileSync(entry, 'utf8');
  const specifiers = [
    ...code.matchAll(/(?:^|[\s;])import\s*(?:[^'"]*?\sfrom\s*)?["']([^"']+)["']/g),
    ...code.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g),
    ...code.matchAll(/\brequire\s*\(\s*["']([^"']+)["']\s*\)/g),
  ].map((match) => match[1]!);
  expect(specifiers.filter((specifier) => !specifier.startsWith('node:'))).toEqual([]);
  expect(code).not.toContain('@svc-org/ai-sdk');
});

test('the bundle exports svcCliPlugin, whose adapter has the query and session operations', async () => {
  const module = (await import(pathToFileURL(entry).href)) as { svcCliPlugin?: unknown };
  expect(isCliPlugin(module.svcCliPlugin)).toBe(true);
  const plugin = module.svcCliPlugin as { createAdapter(): Promise<Record<string, unknown>> | Record<string, unknown> };
  const adapter = await plugin.createAdapter();
  expect(typeof adapter.buildSessionProcess).toBe('function');
  expect(typeof adapter.generate).toBe('function');
  expect(typeof adapter.stream).toBe('function');
  expect(adapter.models).toBeUndefined();
  expect(adapter.mcp ?? adapter.hooks ?? adapter.skills).toBeUndefined();
});
