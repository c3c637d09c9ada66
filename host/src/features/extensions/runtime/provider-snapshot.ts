// A hardened provider process starts from a V8 start-up snapshot of its main (process-snapshot.ts)
// where one can be built: Node's modules and svc's main are then loaded and compiled once, not at
// each launch. The host builds it, outside any sandbox, with the node binary and V8 flags the
// launches use (a snapshot only starts under the flags it was built with), checks that it starts
// under the launch's flags, and keeps it for later launches and service lives. It is only ever a
// speed-up: without one (not built yet, no such support, a file it cannot trust) a launch runs the
// bootstrap bundle as before.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PROVIDER_SNAPSHOT_CHECK } from './process-messages.js';

export interface ProviderSnapshotSpec {
  /** The real path of the node binary of the launches. */
  nodeBinary: string;
  /** The bootstrap bundle the snapshot stands for (its builder, provider-snapshot.cjs, is beside it). */
  bootstrapFile: string;
  /** The V8 flags of the launches (heap and stack): part of what a snapshot is built for. */
  v8Flags: string[];
  /** The launch's other Node flags, under which the built snapshot is checked. */
  nodeFlags: string[];
  env: Record<string, string>;
}

/** Built or found this service life, by file: the path, or undefined once a build failed. */
const known = new Map<string, Promise<string | undefined>>();

/** The builder beside the bootstrap bundle (host/dist/provider-snapshot.cjs), when built. */
function builderOf(bootstrapFile: string): string | undefined {
  const builder = join(dirname(bootstrapFile), 'provider-snapshot.cjs');
  return existsSync(builder) ? builder : undefined;
}

/**
 * A folder (`kind` 'folder') or a regular file, not a link, owned by this user and writable by nobody
 * else: the only folder or file svc starts a provider from.
 */
function trusted(path: string, kind: 'file' | 'folder' = 'file'): boolean {
  try {
    const stat = lstatSync(path);
    const uid = process.getuid?.();
    return (kind === 'file' ? stat.isFile() : stat.isDirectory()) && (uid === undefined || stat.uid === uid) && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * Where the snapshot for `spec` is kept: svc's cache folder (the V8 code cache's, host/bin/svc.cjs),
 * named by what it was built from (the builder's content, the node binary as it is on disk, the V8
 * flags); undefined when there is no builder or no folder svc can trust.
 */
function snapshotFile(spec: ProviderSnapshotSpec): string | undefined {
  const builder = builderOf(spec.bootstrapFile);
  if (builder === undefined || process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const name = `svc-v8-${process.getuid?.() ?? 'user'}`;
  const folder = process.env.NODE_COMPILE_CACHE ? join(process.env.NODE_COMPILE_CACHE, name) : join(tmpdir(), name);
  const memo = JSON.stringify([folder, builder, spec.nodeBinary, spec.v8Flags]);
  if (!named.has(memo)) named.set(memo, nameIn(folder, builder, spec));
  const file = named.get(memo);
  // The folder is checked at each launch: one no longer this user's alone is not started from.
  return file !== undefined && trusted(folder, 'folder') ? file : undefined;
}

/** Snapshot file names by folder, builder, node binary and flags: read and hashed once per service life. */
const named = new Map<string, string | undefined>();

function nameIn(folder: string, builder: string, spec: ProviderSnapshotSpec): string | undefined {
  try {
    if (!existsSync(folder)) mkdirSync(folder, { recursive: true, mode: 0o700 });
    const node = statSync(spec.nodeBinary);
    const key = createHash('sha256')
      .update(readFileSync(builder))
      .update(JSON.stringify([spec.nodeBinary, node.size, node.mtimeMs, node.ino, process.arch, spec.v8Flags]))
      .digest('hex')
      .slice(0, 24);
    return join(folder, `provider-process-${key}.snapshot`);
  } catch {
    return undefined;
  }
}

/** The snapshot a launch starts from, when it is built and can be trusted; undefined otherwise. */
export function readyProviderSnapshot(spec: ProviderSnapshotSpec): string | undefined {
  const file = snapshotFile(spec);
  return file !== undefined && trusted(file) ? file : undefined;
}

/** Builds the snapshot of `spec` when there is none; settles with its path, or undefined (none can be used). */
export function buildProviderSnapshot(spec: ProviderSnapshotSpec): Promise<string | undefined> {
  const file = snapshotFile(spec);
  if (file === undefined) return Promise.resolve(undefined);
  let built = known.get(file);
  if (!built) {
    built = trusted(file) ? Promise.resolve(file) : build(spec, file);
    known.set(file, built);
  }
  return built;
}

async function build(spec: ProviderSnapshotSpec, file: string): Promise<string | undefined> {
  const builder = builderOf(spec.bootstrapFile);
  if (builder === undefined) return undefined;
  // Written beside, checked, then renamed over: a launch never meets half a file or an unchecked one.
  const partial = `${file}.${process.pid}.tmp`;
  try {
    rmSync(partial, { force: true });
    const madeIt = await run(spec.nodeBinary, [...spec.v8Flags, '--snapshot-blob', partial, '--build-snapshot', builder], spec.env);
    if (!madeIt.ok) return undefined;
    chmodSync(partial, 0o600);
    const check = await run(spec.nodeBinary, [...spec.nodeFlags, ...spec.v8Flags, '--snapshot-blob', partial, PROVIDER_SNAPSHOT_CHECK], spec.env);
    if (!check.ok || check.out !== 'ok\n' || !trusted(partial)) return undefined;
    renameSync(partial, file);
    removeStale(dirname(file));
    return file;
  } catch {
    return undefined;
  } finally {
    rmSync(partial, { force: true });
  }
}

/** A snapshot is written once and then only read: one older than this was made for a build or a node no longer run. */
const KEEP_MS = 7 * 24 * 60 * 60 * 1000;

function removeStale(folder: string): void {
  const now = Date.now();
  try {
    for (const name of readdirSync(folder)) {
      if (!/^provider-process-[0-9a-f]+\.snapshot$/.test(name)) continue;
      const path = join(folder, name);
      if (now - lstatSync(path).mtimeMs > KEEP_MS) rmSync(path, { force: true });
    }
  } catch {
    // Only disk space is lost.
  }
}

function run(command: string, args: string[], env: Record<string, string>): Promise<{ ok: boolean; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => (out += text.slice(0, 64)));
    child.once('error', () => resolve({ ok: false, out }));
    child.once('close', (code) => resolve({ ok: code === 0, out }));
  });
}
