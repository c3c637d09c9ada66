#!/usr/bin/env node
// Entry of the `svc` command: runs the bundle built by `pnpm build`.
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

// Refused before anything else loads: an older Node would fail later with a stack trace.
const major = Number(process.versions.node.split('.')[0]);
if (!(major >= 20)) {
  process.stderr.write(
    `svc needs Node.js 20 or newer (22 or 24 recommended); this is Node ${process.version}.\n` +
      'Install a maintained Node.js line and run svc again.\n',
  );
  process.exit(1);
}

// Where Node offers it (22 and newer), compiled code is cached between starts: `svc` starts sooner.
// Without it (Node 20), the bundle's script variant runs with a V8 code cache of svc's own (below).
const compileCache = typeof module.enableCompileCache === 'function';
if (compileCache && !process.env.NODE_DISABLE_COMPILE_CACHE) {
  try {
    module.enableCompileCache();
  } catch {
    // A cache folder that cannot be written only costs speed.
  }
}

// `svc --version` needs none of the bundle: answered from package.json (a test keeps it equal to the
// host's HOST_VERSION), so scripts that check it wait no longer than Node's own start.
const first = process.argv[2];
if (process.argv.length === 3 && (first === '--version' || first === '-v' || first === 'version')) {
  const { readFileSync } = await import('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version}\n`);
  process.exit(0);
}

// `svc mcp` runs its own, smaller bundle: MCP clients wait for it to start (`svc mcp token` is a
// command of the full CLI).
const entry = process.argv[2] === 'mcp' && process.argv[3] !== 'token' ? 'mcp' : 'svc';
const bundle = fileURLToPath(new URL(`../dist/${entry}.mjs`, import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write('svc is not built yet: run `pnpm install && pnpm build` in the svc checkout\n');
  process.exit(1);
}
const ranWithCodeCache = !compileCache && (await (await import('./v8-code-cache.mjs')).runWithCodeCache(new URL('../dist/', import.meta.url), entry));
if (!ranWithCodeCache) await import(bundle);
