#!/usr/bin/env node
// `pnpm extensions:catalog:build -- --base-url <url> --output <dir>`: bundles catalog/src (TypeScript,
// with the workspace SDK inlined) on the fly, as scripts/build.mjs does for the host, then runs it.
import { build } from 'esbuild';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const repoRoot = resolve(import.meta.dirname, '../..');
const outfile = join(repoRoot, 'catalog/dist/catalog.mjs');
await build({
  entryPoints: [join(repoRoot, 'catalog/src/index.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  alias: { '@svc-org/ai-sdk': join(repoRoot, 'sdk/src/index.ts') },
  logLevel: 'warning',
});
const { runCatalogCli } = await import(pathToFileURL(outfile).href);
process.exitCode = await runCatalogCli(process.argv.slice(2), {
  repoRoot,
  cwd: process.env.INIT_CWD ?? process.cwd(),
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
