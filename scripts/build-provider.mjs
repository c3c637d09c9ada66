#!/usr/bin/env node
// Builds one provider package: src/index.ts → dist/svc-cli-provider.js, one ESM file with the SDK
// bundled (contract v1: runtime SDK imports must be bundled). Usage: build-provider.mjs [dir]
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { resolve, join } from 'node:path';

export async function buildProvider(dir) {
  const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
  const target = pkg.exports?.['./svc-cli-provider'];
  if (typeof target !== 'string') throw new Error(`${dir}: package.json exports["./svc-cli-provider"] must be a path`);
  await build({
    entryPoints: [join(dir, 'src/index.ts')],
    outfile: join(dir, target),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: false,
    legalComments: 'none',
    // ESM builds first: libraries such as jsonc-parser ship a UMD `main` whose dynamic requires
    // esbuild cannot follow, and their `module` build bundles into the one file with nothing left out.
    mainFields: ['module', 'main'],
    logLevel: 'warning',
    // Deterministic output: no absolute paths or timestamps end up in the bundle.
    absWorkingDir: resolve(dir),
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildProvider(resolve(process.argv[2] ?? '.'));
}
