// vitest globalSetup: no test runs against a stale build. Tests spawn host/dist/svc.mjs and load
// providers' dist/ bundles; when any of them is older than its sources, the build runs first, and
// if it is still stale after that the run stops saying which output and why.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

interface Output {
  file: string;
  sources: string[];
}

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).filter((entry) => entry !== 'node_modules' && entry !== 'dist').map((entry) => newest(join(path, entry))));
}

function outputs(): Output[] {
  const shared = ['sdk/src', 'extension-format/src', 'schemas', 'catalog/src'].map((dir) => join(ROOT, dir));
  // svc.mjs and mcp.mjs both hold the harness (the MCP server mounts host and harness operations);
  // their script variants (*.vm.js) are what `svc` runs on Node 20; cli/ holds the CLI split in chunks, what `svc` runs;
  // provider-snapshot.cjs is what a hardened provider process's start-up snapshot is built from.
  const list: Output[] = ['svc.mjs', 'worker.cjs', 'mcp.mjs', 'svc.vm.js', 'mcp.vm.js', 'cli/svc.mjs', 'cli/svc.vm.js', 'provider-process.mjs', 'provider-snapshot.cjs'].map((name) => ({ file: join(ROOT, 'host/dist', name), sources: [join(ROOT, 'host/src'), join(ROOT, 'app/src'), join(ROOT, 'harness/src'), ...shared] }));
  for (const parent of ['extensions/cli-providers', 'test/fixtures/providers']) {
    const dir = join(ROOT, parent);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const pkgFile = join(dir, name, 'package.json');
      if (!existsSync(pkgFile) || !existsSync(join(dir, name, 'src/index.ts'))) continue;
      const target = (JSON.parse(readFileSync(pkgFile, 'utf8')) as { exports?: Record<string, string> }).exports?.['./svc-cli-provider'];
      if (target) list.push({ file: join(dir, name, target), sources: [join(dir, name, 'src'), join(ROOT, 'sdk/src')] });
    }
  }
  return list;
}

/** Outputs that are missing or older than one of their sources. */
export function staleOutputs(): string[] {
  return outputs()
    .filter((output) => !existsSync(output.file) || statSync(output.file).mtimeMs < Math.max(...output.sources.map(newest)))
    .map((output) => output.file.slice(ROOT.length + 1));
}

export function setup(): void {
  const stale = staleOutputs();
  if (stale.length === 0) return;
  process.stderr.write(`build outputs older than their sources (${stale.join(', ')}): running pnpm build first\n`);
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  const still = staleOutputs();
  if (built.status !== 0 || still.length > 0) {
    throw new Error(`stale build: ${still.join(', ') || 'the build failed'} — run \`pnpm build\` and look at its errors`);
  }
}
