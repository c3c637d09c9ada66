#!/usr/bin/env node
// `pnpm build`: bundles the host (CLI + worker bootstrap) and every provider under extensions/.
import { build } from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildProvider } from './build-provider.mjs';

const root = resolve(import.meta.dirname, '..');

const hostEntries = {
  svc: 'host/src/cli/main.ts',
  worker: 'host/src/extensions/runtime/worker-bootstrap.ts',
};
const present = Object.fromEntries(Object.entries(hostEntries).filter(([, file]) => existsSync(join(root, file))));
if (Object.keys(present).length > 0) {
  await build({
    entryPoints: present,
    outdir: join(root, 'host/dist'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // The SDK is a workspace package of TypeScript sources: bundle it rather than import it at run time.
    alias: { '@svc-org/ai-sdk': join(root, 'sdk/src/index.ts') },
    loader: { '.sql': 'text' },
    sourcemap: 'linked',
    logLevel: 'warning',
    banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" },
  });
}

// Providers shipped in the repository, and the test fixture providers the host's tests load.
for (const providersDir of [join(root, 'extensions/cli-providers'), join(root, 'test/fixtures/providers')]) {
  if (!existsSync(providersDir)) continue;
  for (const name of readdirSync(providersDir).sort()) {
    const dir = join(providersDir, name);
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src/index.ts'))) await buildProvider(dir);
  }
}
