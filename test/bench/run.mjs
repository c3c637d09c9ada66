#!/usr/bin/env node
// `pnpm bench`: bundles the TypeScript benchmark entry on the fly and runs it. Benchmarks report;
// they never fail CI.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '../..');
const out = mkdtempSync(join(root, 'node_modules', '.svc-bench-'));
try {
  await build({
    entryPoints: [join(root, 'test/bench/main.ts')],
    outfile: join(out, 'bench.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    alias: { '@svc-org/ai-sdk/testing': join(root, 'sdk/src/testing/index.ts'), '@svc-org/ai-sdk': join(root, 'sdk/src/index.ts') },
    loader: { '.sql': 'text' },
    // The format package is a workspace package of TypeScript sources, like the SDK: bundled, not imported at run time.
    plugins: [
      {
        name: 'extension-format-sources',
        setup(pluginBuild) {
          pluginBuild.onResolve({ filter: /^@svc-org\/extension-format(\/[a-z]+)?$/ }, (args) => ({
            path: join(root, 'extension-format/src', args.path.slice('@svc-org/extension-format'.length), 'index.ts'),
          }));
        },
      },
    ],
    logLevel: 'warning',
    banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
  });
  const { main } = await import(pathToFileURL(join(out, 'bench.mjs')).href);
  await main(process.argv.slice(2));
} finally {
  rmSync(out, { recursive: true, force: true });
}
void tmpdir;
