#!/usr/bin/env node
// `pnpm mcp:docs`: writes docs/mcp-tools.md from the capability definition of `svc mcp`.
// `--print` writes it to stdout instead. harness/test/mcp-tools-doc.test.ts fails on drift.
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { importSources } from './import-sources.mjs';

const root = resolve(import.meta.dirname, '..');
const { text } = await importSources(
  root,
  "import { CapabilityDefinition, renderToolReference } from './host/src/adapters/mcp/index.ts';\n" +
    "import { ALL_OPERATIONS } from './host/src/app/all-operations.ts';\n" +
    'export const text = renderToolReference(new CapabilityDefinition(ALL_OPERATIONS.list()));',
  'mcp-docs',
);
if (process.argv.includes('--print')) process.stdout.write(text);
else {
  await writeFile(join(root, 'docs/mcp-tools.md'), text);
  process.stdout.write('wrote docs/mcp-tools.md\n');
}
