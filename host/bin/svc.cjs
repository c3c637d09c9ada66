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

const { closeSync, existsSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, constants } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

// Where Node offers it (22 and newer), compiled code is cached between starts: `svc` starts sooner.
// Without it (Node 20), the bundle's script variant runs with a V8 code cache of svc's own (below).
const nodeModule = require('node:module');
const compileCache = typeof nodeModule.enableCompileCache === 'function';
if (compileCache && !process.env.NODE_DISABLE_COMPILE_CACHE) {
  try {
    nodeModule.enableCompileCache();
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
const cli = join(__dirname, '../dist/cli/');

// For a Node without `module.enableCompileCache` (Node 20): the bundle's script variants (written by
// `pnpm build`) run through `vm.Script` with a V8 code cache, so a start does not compile them again.
// The cache is only ever a speed-up: a folder or file it cannot trust, or any failure, means no
// cache, never a failed command. (Here rather than in a module of its own: one file fewer for Node
// to resolve, read and wrap at every start.)

/** What `svc doctor` says about the cache: read by the bundle from this global symbol. */
const STATE = Symbol.for('svc.v8CodeCache');

/** Owned by this user and writable by nobody else: the only folder or file whose code svc runs. */
function trusted(stat, uid) {
  return (uid === undefined || stat.uid === uid) && (stat.mode & 0o022) === 0;
}

/**
 * The cache folder, created 0700 when absent; not usable when it exists but cannot be trusted. By
 * default it sits in the temporary folder itself, not in Node's `node-compile-cache` there: created
 * by svc first, that shared parent would be this user's alone and Node 22 and newer of other users
 * could not cache in it.
 */
function cacheFolder(env, uid) {
  const name = `svc-v8-${uid ?? 'user'}`;
  const folder = env.NODE_COMPILE_CACHE ? join(env.NODE_COMPILE_CACHE, name) : join(require('node:os').tmpdir(), name);
  let stat;
  try {
    stat = lstatSync(folder);
  } catch {
    // NODE_COMPILE_CACHE is the user's own choice: made if missing, with Node's usual modes.
    if (env.NODE_COMPILE_CACHE) mkdirSync(env.NODE_COMPILE_CACHE, { recursive: true });
    mkdirSync(folder, { mode: 0o700 });
    stat = lstatSync(folder);
  }
  return { folder, usable: stat.isDirectory() && trusted(stat, uid) };
}

/** The cache file's bytes; undefined when there is none or it cannot be trusted (a link, another owner, writable by others). */
function readCache(file, uid) {
  let fd;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || !trusted(stat, uid)) return { refused: true };
    // Read through the descriptor that was checked, never the path again.
    return { data: readFileSync(fd) };
  } finally {
    closeSync(fd);
  }
}

/** A cache file is written once and then only read: one not written for this long is let go. */
const KEEP_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Written beside, 0600, then renamed over: a reader never sees half a file. Each build leaves files
 * of about a megabyte per command, so a write also removes the folder's files older than a week
 * (another checkout still in use writes its file again at its next start).
 */
function writeCache(folder, file, data) {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, data, { mode: 0o600, flag: 'wx' });
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
  const now = Date.now();
  for (const name of readdirSync(folder)) {
    if (!name.endsWith('.cache') && !name.endsWith('.tmp')) continue;
    const path = join(folder, name);
    const stat = lstatSync(path);
    if (stat.isFile() && now - stat.mtimeMs > (name.endsWith('.tmp') ? 60 * 60 * 1000 : KEEP_MS)) rmSync(path, { force: true });
  }
}

/** A built script's text, or undefined when there is none. */
function readScript(filename) {
  try {
    // ASCII (the build checks it), so read as Latin-1: the same text, without decoding UTF-8.
    return readFileSync(filename, 'latin1');
  } catch {
    return undefined;
  }
}

/**
 * Runs `<dir>/<entry>.vm.js` (`dir` ends with a separator); false when there is no such variant (the
 * caller imports the ES module bundle instead).
 */
async function runWithCodeCache(dir, entry, env = process.env) {
  const filename = dir + `${entry}.vm.js`;
  const source = readScript(filename);
  if (source === undefined) return false;
  const hash = contentHash(source);
  const uid = process.getuid?.();
  const state = { folder: undefined, file: undefined, status: 'off' };
  globalThis[STATE] = state;
  let cached;
  if (!env.NODE_DISABLE_COMPILE_CACHE) {
    try {
      const { folder, usable } = cacheFolder(env, uid);
      state.folder = folder;
      state.status = usable ? 'empty' : 'refused';
      if (usable) {
        // One file per command: a cache holds the functions the start that wrote it compiled, and
        // `svc serve` runs other code than `svc task list`.
        state.file = join(folder, `${entry}-${commandOf(process.argv)}-${hash}-${process.version}-${process.arch}.cache`);
        const found = readCache(state.file, uid);
        if (found?.refused) state.status = 'refused';
        else cached = found?.data;
      }
    } catch {
      state.status = 'unavailable';
    }
  }
  const script = new (require('node:vm').Script)(source, { filename, ...(cached ? { cachedData: cached } : {}) });
  if (cached) state.status = script.cachedDataRejected ? 'rejected' : 'used';
  if (state.status === 'empty' || state.status === 'rejected') {
    // Written once the command has compiled what it runs (the cache then holds those functions too):
    // at exit, or after a moment for a command that keeps running (svc serve, svc mcp).
    let written = false;
    const write = () => {
      if (written) return;
      written = true;
      try {
        writeCache(state.folder, state.file, script.createCachedData());
      } catch {
        // Only the next start's speed is lost.
      }
    };
    process.once('exit', write);
    setTimeout(write, 2_000).unref();
  }
  const run = script.runInThisContext();
  await run(nodeModule.createRequire(filename), pathToFileURL(filename).href);
  return true;
}

/** The build names a script's content on its first line: a cache made for other code is never offered. */
function contentHash(source) {
  return /^\/\/ svc-vm ([0-9a-f]+)\n/.exec(source)?.[1] ?? 'unknown';
}

/** The command a start runs, which names its cache file. */
function commandOf(argv) {
  return /^[a-z][a-z-]{0,31}$/.test(argv[2] ?? '') ? argv[2] : 'other';
}

/**
 * A split bundle's cache file: a little-endian uint32, the length of a JSON list of each chunk's
 * [file name, content hash, length], then each chunk's cached data in that order.
 */
function parseChunkCaches(data) {
  const found = new Map();
  const headerLength = data.readUInt32LE(0);
  let offset = 4 + headerLength;
  for (const [name, hash, length] of JSON.parse(data.subarray(4, offset).toString('latin1'))) {
    if (typeof name !== 'string' || typeof hash !== 'string' || !Number.isSafeInteger(length) || length < 0 || offset + length > data.length) throw new Error('malformed');
    found.set(name, { hash, data: data.subarray(offset, offset + length) });
    offset += length;
  }
  return found;
}

function serializeChunkCaches(chunks) {
  const header = Buffer.from(JSON.stringify(chunks.map(({ name, hash, data }) => [name, hash, data.length])), 'latin1');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  return Buffer.concat([length, header, ...chunks.map(({ data }) => data)]);
}

/**
 * Runs the entry chunk of a split bundle (host/dist/cli, written by `pnpm build`), `<entry>` in
 * `<dir>/<entry>.vm.js` (`dir` ends with a separator), and each chunk it requires
 * (`./<file>#<chunk>`) when first required; false
 * when there is no such file (the caller imports the ES module instead). A chunk is CommonJS text
 * wrapped in a function taking (exports, require, module, import.meta.url, views of the CommonJS
 * modules it imports, shared by all chunks); a file is a script whose
 * value is an object of such functions, the chunks that are always loaded together, compiled as one
 * when the first of them is required. The code caches of the files a command loads are kept together
 * in one file per command, checked as a whole as runWithCodeCache checks its file; a file whose
 * content hash it does not hold is compiled, and the cache file written again.
 */
function runChunksWithCodeCache(dir, entry, env = process.env) {
  const entryFile = dir + `${entry}.vm.js`;
  const entrySource = readScript(entryFile);
  if (entrySource === undefined) return false;
  // Chunk names are file-name and URL safe ([\w-]+.vm.js, checked below): joined by hand, as a start makes many.
  const dirHref = pathToFileURL(dir).href;
  const { Script } = require('node:vm');
  const external = nodeModule.createRequire(entryFile);
  const uid = process.getuid?.();
  const state = { folder: undefined, file: undefined, status: 'off' };
  globalThis[STATE] = state;
  let cached = new Map();
  if (!env.NODE_DISABLE_COMPILE_CACHE) {
    try {
      const { folder, usable } = cacheFolder(env, uid);
      state.folder = folder;
      state.status = usable ? 'empty' : 'refused';
      if (usable) {
        const hash = contentHash(entrySource);
        state.file = join(folder, `${entry}-${commandOf(process.argv)}-${hash}-${process.version}-${process.arch}.cache`);
        const found = readCache(state.file, uid);
        if (found?.refused) state.status = 'refused';
        else if (found) {
          try {
            cached = parseChunkCaches(found.data);
            state.status = 'used';
          } catch {
            state.status = 'rejected';
          }
        }
      }
    } catch {
      state.status = 'unavailable';
    }
  }
  const writes = state.status === 'empty' || state.status === 'used' || state.status === 'rejected';
  // Every file this start loaded, in order; `dirty` once one was compiled without a cache it could use.
  const loaded = [];
  let dirty = false;
  // Written once the command has compiled what it runs: at exit, or a moment after the first file
  // compiled without its cache for a command that keeps running (svc serve), and again at exit if
  // it loaded chunks after that. A start whose cache held every file it loaded writes nothing and
  // sets no timer.
  let timer;
  const write = () => {
    if (!dirty) return;
    dirty = false;
    try {
      writeCache(state.folder, state.file, serializeChunkCaches(loaded.map((chunk) => ({ name: chunk.name, hash: chunk.hash, data: chunk.data ?? chunk.script.createCachedData() }))));
    } catch {
      // Only the next start's speed is lost.
    }
  };
  const compiledWithoutCache = () => {
    if (!writes || dirty) return;
    dirty = true;
    timer ??= setTimeout(write, 2_000).unref();
  };
  if (writes) process.once('exit', write);
  // Each file's chunk functions, each chunk's module once it ran, and the view of each CommonJS module
  // or Node built-in that chunks import (made once, shared by every chunk that imports it).
  const files = new Map();
  const modules = new Map();
  const views = new WeakMap();
  const compile = (name, source) => {
    const filename = dir + name;
    source ??= readFileSync(filename, 'latin1');
    const hash = contentHash(source);
    const offered = cached.get(name);
    const cachedData = offered?.hash === hash ? offered.data : undefined;
    const script = new Script(source, { filename, ...(cachedData ? { cachedData } : {}) });
    const accepted = cachedData !== undefined && !script.cachedDataRejected;
    if (cachedData && !accepted && state.status === 'used') state.status = 'rejected';
    if (!accepted) compiledWithoutCache();
    loaded.push({ name, hash, script, data: accepted ? cachedData : undefined });
    const chunks = script.runInThisContext();
    files.set(name, chunks);
    return chunks;
  };
  const load = (specifier, name, chunk, source) => {
    const known = modules.get(specifier);
    if (known) return known.exports;
    const module = { exports: {} };
    modules.set(specifier, module);
    (files.get(name) ?? compile(name, source))[chunk](module.exports, chunkRequire, module, dirHref + name, views);
    return module.exports;
  };
  // A chunk's imports of other chunks load them; anything else (Node's built-ins, native packages) is Node's require.
  const chunkRequire = Object.assign(
    (specifier) => {
      const chunk = /^\.\/([\w-]+\.vm\.js)#([\w-]+)$/.exec(specifier);
      return chunk ? load(specifier, chunk[1], chunk[2]) : external(specifier);
    },
    { resolve: external.resolve, cache: external.cache },
  );
  load(`./${entry}.vm.js#${entry}`, `${entry}.vm.js`, entry, entrySource);
  return true;
}

// A failure here is an unhandled rejection: printed, and the exit status is 1.
void (async () => {
  // Node 20: the split CLI's scripts, when the build wrote them, run at once (a start checks no other file).
  if (!compileCache && entry === 'svc' && runChunksWithCodeCache(cli, entry)) return;
  const split = entry === 'svc' && existsSync(join(cli, 'svc.mjs'));
  const dist = split ? cli : join(__dirname, '../dist/');
  const bundle = join(dist, `${entry}.mjs`);
  if (!existsSync(bundle)) {
    process.stderr.write('svc is not built yet: run `pnpm install && pnpm build` in the svc checkout\n');
    process.exit(1);
  }
  const ranWithCodeCache = !compileCache && !split && (await runWithCodeCache(dist, entry));
  if (!ranWithCodeCache) await import(pathToFileURL(bundle).href);
})();
