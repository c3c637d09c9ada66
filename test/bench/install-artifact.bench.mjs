// Benchmark: install path of a 5 MB artifact as `svc ext install` runs it — journal row, download over
// loopback HTTPS (throwaway CA) with the running size bound and SHA-256 into staging, inspect +
// extract into staging, then the atomic switch (files made read-only, one rename into the store, one
// libsql transaction registering the version and closing the journal row) — beside `sha256sum` plus
// `tar -xzf` of the same file. Preflight is not counted (its CLI probe is a process start, not
// install work). The TypeScript modules are bundled on the fly with esbuild.
// Usage: `node test/bench/install-artifact.bench.mjs`, or import and call benchInstallArtifact().
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '../..');

async function loadModules() {
  // Inside node_modules, so the bundle resolves libsql (a native package, left external) from the repo.
  const outDir = await mkdtemp(join(repoRoot, 'node_modules', '.svc-bench-install-'));
  const outfile = join(outDir, 'install-bench-modules.mjs');
  await build({
    stdin: {
      contents: [
        "export { downloadArtifact, extractArtifact } from './host/src/features/extensions/install/index.ts';",
        "export { ExtensionStoreLayout, InstallJournal, makeReadOnly, removeTree, READ_ONLY_FOLDER_MODE } from './host/src/features/extensions/catalog-installer/index.ts';",
        "export { ExtensionRegistry } from './host/src/features/extensions/registry/index.ts';",
        "export { openDatabase, transaction } from './host/src/platform/db/index.ts';",
        "export { packDeterministicTgz } from './catalog/src/pack-deterministic-tgz.ts';",
        "export { createThrowawayCa, startHttpsServer } from './test/support/throwaway-https.ts';",
      ].join('\n'),
      resolveDir: repoRoot,
      loader: 'ts',
    },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    alias: { '@svc-org/ai-sdk': join(repoRoot, 'sdk/src/index.ts') },
    external: ['libsql'],
    loader: { '.sql': 'text' },
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  return { modules: await import(pathToFileURL(outfile).href), outDir };
}

/**
 * An asset's first bytes are fixed: random bytes may begin like a native executable (`MZ`, `\x7fELF`,
 * …), which an install refuses, and the run would then fail by chance.
 */
const ASSET_HEADER = Buffer.from('svc bench asset\n');

/** About 5 MB compressed: bundles (text, compresses well) and assets (random, does not). */
function artifactFiles() {
  const text = Buffer.from('export function handler(input) { return JSON.stringify({ input, at: Date.now() }); }\n'.repeat(2_500));
  const files = [{ path: 'package/package.json', contents: Buffer.from('{"name":"@bench/svc-provider-bench","version":"1.0.0","type":"module"}\n') }];
  for (let i = 0; i < 10; i++) files.push({ path: `package/dist/chunk-${i}.js`, contents: text });
  for (let i = 0; i < 30; i++) files.push({ path: `package/dist/assets/blob-${String(i).padStart(2, '0')}.bin`, contents: Buffer.concat([ASSET_HEADER, randomBytes(165 * 1024 - ASSET_HEADER.length)]) });
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function benchInstallArtifact({ iterations = 7 } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-install-'));
  let server;
  let db;
  let outDir;
  try {
    const loaded = await loadModules();
    const modules = loaded.modules;
    outDir = loaded.outDir;
    await mkdir(join(dir, 'ca'));
    const ca = modules.createThrowawayCa(join(dir, 'ca'));
    const bytes = modules.packDeterministicTgz(artifactFiles());
    const file = join(dir, 'bench.tgz');
    await writeFile(file, bytes);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    server = await modules.startHttpsServer(ca, (_request, response) => {
      response.setHeader('content-length', bytes.length);
      response.end(bytes);
    });
    // A real SVC_HOME layout and database, as the installer uses them.
    const home = join(dir, 'home');
    await mkdir(home);
    db = modules.openDatabase(join(home, 'svc.db'));
    const registry = new modules.ExtensionRegistry(db);
    const journal = new modules.InstallJournal(db);
    const layout = new modules.ExtensionStoreLayout(home);
    const id = 'bench.provider';
    const version = '1.0.0';

    const ours = [];
    const switches = [];
    const baseline = [];
    // One warm-up round of each, not counted (JIT, page cache, TLS session setup code paths).
    for (let i = -1; i < iterations; i++) {
      let start = performance.now();
      const op = journal.begin('install', id, version);
      const staging = layout.stagingDir(op.opId);
      await mkdir(staging, { recursive: true });
      const dest = join(staging, 'artifact.tgz');
      const packageDir = join(staging, 'package');
      await modules.downloadArtifact(`${server.origin}/bench.tgz`, { sha256, size: bytes.length, destFile: dest, ca: ca.caCert });
      await modules.extractArtifact(dest, packageDir);
      const switchStart = performance.now();
      await modules.makeReadOnly(packageDir);
      const target = layout.versionDir(id, version);
      await mkdir(dirname(target), { recursive: true });
      await rename(packageDir, target);
      await chmod(target, modules.READ_ONLY_FOLDER_MODE);
      modules.transaction(db, () => {
        registry.versions.registerCatalog({ id, version, path: target, displayName: 'Bench' });
        registry.versions.addVersion({ id, version, path: target, sha256, size: bytes.length, permissions: [] });
        journal.finish(op.opId);
      });
      const end = performance.now();
      if (i >= 0) {
        ours.push(end - start);
        switches.push(end - switchStart);
      }

      start = performance.now();
      await run('sha256sum', [file]);
      await mkdir(join(dir, `tar-${i}`));
      await run('tar', ['-xzf', file, '-C', join(dir, `tar-${i}`)]);
      if (i >= 0) baseline.push(performance.now() - start);

      // Uninstall (not measured) so the next round installs again.
      registry.versions.deleteRegistration(id);
      await modules.removeTree(layout.extensionDir(id));
      await modules.removeTree(staging);
      await rm(join(dir, `tar-${i}`), { recursive: true });
    }
    const ours_ms = Math.round(median(ours) * 10) / 10;
    const baseline_ms = Math.round(median(baseline) * 10) / 10;
    return {
      name: `install ${(bytes.length / 1e6).toFixed(1)} MB artifact (loopback HTTPS + SHA-256 + inspect + extract + atomic switch) vs sha256sum + tar -xzf`,
      ours_ms,
      baseline_ms,
      ratio: Math.round((ours_ms / baseline_ms) * 100) / 100,
      /** Of ours_ms: read-only + rename into the store + the registering transaction. */
      switch_ms: Math.round(median(switches) * 10) / 10,
    };
  } finally {
    db?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
    if (outDir) await rm(outDir, { recursive: true, force: true });
  }
}

export default benchInstallArtifact;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(await benchInstallArtifact());
}
