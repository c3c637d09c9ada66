// Bundles catalog/src (TypeScript, with the workspace SDK inlined) on the fly, as scripts/build.mjs
// does for the host, and imports it: the catalog tools run from source without a build step.
import { build } from 'esbuild';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const repoRoot = resolve(import.meta.dirname, '../..');

export async function loadCatalogModule() {
  const outfile = join(repoRoot, 'catalog/dist/catalog.mjs');
  await build({
    entryPoints: [join(repoRoot, 'catalog/src/index.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    alias: { '@svc-org/ai-sdk': join(repoRoot, 'sdk/src/index.ts'), '@svc-org/extension-format': join(repoRoot, 'extension-format/src') },
    logLevel: 'warning',
  });
  return import(pathToFileURL(outfile).href);
}

export function cliEnvironment() {
  return {
    repoRoot,
    cwd: process.env.INIT_CWD ?? process.cwd(),
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
  };
}
