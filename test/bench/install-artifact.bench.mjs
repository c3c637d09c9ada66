// Benchmark: install path of a 5 MB artifact — download over loopback HTTPS (throwaway CA) with the
// running size bound and SHA-256, then inspect + extract into staging — beside `sha256sum` plus
// `tar -xzf` of the same file. The TypeScript modules are bundled on the fly with esbuild.
// Usage: `node test/bench/install-artifact.bench.mjs`, or import and call benchInstallArtifact().
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '../..');

async function loadModules(dir) {
  const outfile = join(dir, 'install-bench-modules.mjs');
  await build({
    stdin: {
      contents: [
        "export { downloadArtifact, extractArtifact } from './host/src/extensions/install/index.ts';",
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
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  return import(pathToFileURL(outfile).href);
}

/** About 5 MB compressed: bundles (text, compresses well) and assets (random, does not). */
function artifactFiles() {
  const text = Buffer.from('export function handler(input) { return JSON.stringify({ input, at: Date.now() }); }\n'.repeat(2_500));
  const files = [{ path: 'package/package.json', contents: Buffer.from('{"name":"@bench/svc-provider-bench","version":"1.0.0","type":"module"}\n') }];
  for (let i = 0; i < 10; i++) files.push({ path: `package/dist/chunk-${i}.js`, contents: text });
  for (let i = 0; i < 30; i++) files.push({ path: `package/dist/assets/blob-${String(i).padStart(2, '0')}.bin`, contents: randomBytes(165 * 1024) });
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function benchInstallArtifact({ iterations = 7 } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-install-'));
  let server;
  try {
    const modules = await loadModules(dir);
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

    const ours = [];
    const baseline = [];
    // One warm-up round of each, not counted (JIT, page cache, TLS session setup code paths).
    for (let i = -1; i < iterations; i++) {
      let start = performance.now();
      const dest = join(dir, `download-${i}.tgz`);
      await modules.downloadArtifact(`${server.origin}/bench.tgz`, { sha256, size: bytes.length, destFile: dest, ca: ca.caCert });
      await modules.extractArtifact(dest, join(dir, `staging-${i}`));
      if (i >= 0) ours.push(performance.now() - start);

      start = performance.now();
      await run('sha256sum', [file]);
      await mkdir(join(dir, `tar-${i}`));
      await run('tar', ['-xzf', file, '-C', join(dir, `tar-${i}`)]);
      if (i >= 0) baseline.push(performance.now() - start);
      await rm(join(dir, `staging-${i}`), { recursive: true });
      await rm(join(dir, `tar-${i}`), { recursive: true });
      await rm(dest);
    }
    const ours_ms = Math.round(median(ours) * 10) / 10;
    const baseline_ms = Math.round(median(baseline) * 10) / 10;
    return {
      name: `install ${(bytes.length / 1e6).toFixed(1)} MB artifact (loopback HTTPS + SHA-256 + inspect + extract) vs sha256sum + tar -xzf`,
      ours_ms,
      baseline_ms,
      ratio: Math.round((ours_ms / baseline_ms) * 100) / 100,
    };
  } finally {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export default benchInstallArtifact;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(await benchInstallArtifact());
}
