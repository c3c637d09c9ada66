#!/usr/bin/env node
// `pnpm mcp:docs`: writes docs/mcp-tools.md from the capability definition of `svc mcp`.
// `--print` writes it to stdout instead. harness/test/mcp-tools-doc.test.ts fails on drift.
import { build } from 'esbuild';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const result = await build({
  stdin: {
    contents:
      "import { CapabilityDefinition, MCP_OPERATIONS, renderToolReference } from './harness/src/mcp/index.ts';\n" +
      'export const text = renderToolReference(new CapabilityDefinition(MCP_OPERATIONS));',
    resolveDir: root,
    sourcefile: 'generate-mcp-tools-doc-entry.ts',
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  write: false,
  external: ['libsql', 'node-pty', 'piscina'],
  alias: { '@svc-org/ai-sdk': join(root, 'sdk/src/index.ts') },
  loader: { '.sql': 'text' },
  logLevel: 'warning',
  banner: { js: "import { createRequire as __req } from 'node:module'; const require = __req(import.meta.url);" },
});
// Inside the checkout, so the bundle's external packages (libsql…) resolve from its node_modules.
await mkdir(join(root, 'node_modules/.cache'), { recursive: true });
const dir = await mkdtemp(join(root, 'node_modules/.cache/svc-mcp-docs-'));
let text;
try {
  const file = join(dir, 'entry.mjs');
  await writeFile(file, result.outputFiles[0].text);
  ({ text } = await import(pathToFileURL(file).href));
} finally {
  await rm(dir, { recursive: true, force: true });
}
if (process.argv.includes('--print')) process.stdout.write(text);
else {
  await writeFile(join(root, 'docs/mcp-tools.md'), text);
  process.stdout.write('wrote docs/mcp-tools.md\n');
}
