#!/usr/bin/env node
// `pnpm bench`: bundles the TypeScript benchmark entry on the fly and runs it. Benchmarks report;
// they never fail CI.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '../..');
// A machine's extra CA bundle is parsed by every Node start the bench makes, the baselines' too
// (about 70 ms each for 144 certificates), which flatters every start ratio: measure without it.
delete process.env.NODE_EXTRA_CA_CERTS;

// The workspace's own packages export TypeScript sources: they are bundled from their `exports`
// (every other package stays external and loads from node_modules).
const workspaceSources = {
  name: 'workspace-sources',
  setup(build) {
    build.onResolve({ filter: /^@svc-org\// }, (args) => {
      const [scope, name, ...rest] = args.path.split('/');
      // The package's own folder, not its link under node_modules: its files' relative imports of the
      // repository's folders (the catalog index schema) resolve from where they are.
      const dir = realpathSync(join(root, 'node_modules', scope, name));
      const { exports } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const target = exports[rest.length > 0 ? `./${rest.join('/')}` : '.'];
      return target ? { path: join(dir, target) } : undefined;
    });
  },
};
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
    plugins: [workspaceSources],
    loader: { '.sql': 'text' },
    logLevel: 'warning',
    banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
  });
  const { main } = await import(pathToFileURL(join(out, 'bench.mjs')).href);
  await main(process.argv.slice(2));
} finally {
  rmSync(out, { recursive: true, force: true });
}
