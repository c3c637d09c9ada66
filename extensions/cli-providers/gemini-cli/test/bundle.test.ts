// The built entry is what the host loads: one ESM file with the SDK and jsonc-parser bundled in,
// importing only Node builtins, whose settings editor works from the bundle.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CliAdapter } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
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
});

test('the bundled settings editor adds an MCP server to a settings.json with comments, keeping them', async () => {
  const module = (await import(pathToFileURL(entry).href)) as { svcCliPlugin: { createAdapter(): CliAdapter | Promise<CliAdapter> } };
  const adapter = await module.svcCliPlugin.createAdapter();
  const path = '/home/test/.gemini/settings.json';
  const host = createTestHost({ permissions: ['integration:mcp'], files: { [path]: '{\n  // my theme\n  "theme": "Dracula"\n}\n' } });
  await adapter.mcp!.install({ name: 'docs', command: 'npx', args: ['docs-mcp'] }, { scope: 'user' }, host.context({ integration: 'mcp' }));
  const text = host.files.get(path)!;
  expect(text).toContain('// my theme');
  expect(text).toContain('"docs"');
});
