// Bundles catalog/src (TypeScript, with the workspace SDK inlined) on the fly, as scripts/build.mjs
// does for the host, and imports it: the catalog tools run from source without a build step.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const repoRoot = resolve(import.meta.dirname, '../..');

export async function loadCatalogModule() {
  const result = await build({
    entryPoints: [join(repoRoot, 'catalog/src/index.ts')],
    write: false,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    alias: { '@svc-org/ai-sdk': join(repoRoot, 'sdk/src/index.ts'), '@svc-org/extension-format': join(repoRoot, 'extension-format/src') },
    logLevel: 'warning',
  });
  // Named by its content and written whole (a temporary file, then a rename): two catalog builds
  // started at once (two test files, or a person's two shells) never import each other's half-written
  // bundle, and the same sources reuse the same file.
  const code = result.outputFiles[0].contents;
  const dir = join(repoRoot, 'catalog/dist');
  const outfile = join(dir, `catalog-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(outfile)) {
    mkdirSync(dir, { recursive: true });
    const partial = `${outfile}.${process.pid}.tmp`;
    writeFileSync(partial, code);
    renameSync(partial, outfile);
  }
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
