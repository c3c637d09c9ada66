// Evaluates a few lines of TypeScript against the repository's sources at build time: esbuild bundles
// them as the svc bundles are (the SDK by its source, migrations as text, native packages external),
// and the result is imported from a folder inside the checkout, so those external packages resolve
// from its node_modules. Used where a build step needs values the sources compute (the MCP tool
// listings, docs/mcp-tools.md).
import { build } from 'esbuild';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The module `contents` (TypeScript, paths relative to `root`) exports. */
export async function importSources(root, contents, name) {
  const result = await build({
    stdin: { contents, resolveDir: root, sourcefile: `${name}-entry.ts`, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    external: ['libsql', 'node-pty', 'piscina'],
    alias: { '@svc-org/ai-sdk': join(root, 'sdk/src/index.ts') },
    loader: { '.sql': 'text' },
    logLevel: 'warning',
    banner: { js: "import { createRequire as __req } from 'node:module'; const require = __req(import.meta.url);" },
  });
  await mkdir(join(root, 'node_modules/.cache'), { recursive: true });
  const dir = await mkdtemp(join(root, `node_modules/.cache/svc-${name}-`));
  try {
    const file = join(dir, 'entry.mjs');
    await writeFile(file, result.outputFiles[0].text);
    return await import(pathToFileURL(file).href);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
