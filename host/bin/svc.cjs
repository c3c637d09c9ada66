#!/usr/bin/env node
// Entry of the `svc` command: runs the bundle built by `pnpm build`. CommonJS, so that a start does
// not first set up Node's ES module loader (whose asynchronous file reads also start libuv's thread
// pool, four threads that a short command's exit then waits for) before it reaches the bundle.
'use strict';

// Refused before anything else loads: an older Node would fail later with a stack trace.
const major = Number(process.versions.node.split('.')[0]);
if (!(major >= 20)) {
  process.stderr.write(
    `svc needs Node.js 20 or newer (22 or 24 recommended); this is Node ${process.version}.\n` +
      'Install a maintained Node.js line and run svc again.\n',
  );
  process.exit(1);
}

const { existsSync, readFileSync } = require('node:fs');
const module_ = require('node:module');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

// Where Node offers it (22 and newer), compiled code is cached between starts: `svc` starts sooner.
// Without it (Node 20), the bundle's script variant runs with a V8 code cache of svc's own (below).
const compileCache = typeof module_.enableCompileCache === 'function';
if (compileCache && !process.env.NODE_DISABLE_COMPILE_CACHE) {
  try {
    module_.enableCompileCache();
  } catch {
    // A cache folder that cannot be written only costs speed.
  }
}

// `svc --version` needs none of the bundle: answered from package.json (a test keeps it equal to the
// host's HOST_VERSION), so scripts that check it wait no longer than Node's own start.
const first = process.argv[2];
if (process.argv.length === 3 && (first === '--version' || first === '-v' || first === 'version')) {
  process.stdout.write(`${JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')).version}\n`);
  process.exit(0);
}

// `svc mcp` runs its own, smaller bundle: MCP clients wait for it to start (`svc mcp token` is a
// command of the full CLI).
const entry = process.argv[2] === 'mcp' && process.argv[3] !== 'token' ? 'mcp' : 'svc';
// The rest of the CLI runs split into chunks (host/dist/cli, see scripts/build.mjs): a command loads
// the chunks it runs, not every command's code. host/dist/svc.mjs is the same CLI in one file.
const split = entry === 'svc' && existsSync(join(__dirname, '../dist/cli/svc.mjs'));
const dist = join(__dirname, split ? '../dist/cli/' : '../dist/');
const bundle = join(dist, `${entry}.mjs`);
if (!existsSync(bundle)) {
  process.stderr.write('svc is not built yet: run `pnpm install && pnpm build` in the svc checkout\n');
  process.exit(1);
}
// A failure here is an unhandled rejection: printed, and the exit status is 1.
void (async () => {
  const codeCache = compileCache ? undefined : require('./v8-code-cache.cjs');
  const ranWithCodeCache = codeCache !== undefined && (split ? codeCache.runChunksWithCodeCache(pathToFileURL(dist), entry) : await codeCache.runWithCodeCache(pathToFileURL(dist), entry));
  if (!ranWithCodeCache) await import(pathToFileURL(bundle).href);
})();
