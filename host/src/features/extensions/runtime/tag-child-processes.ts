// Runs in a provider's worker thread, before the provider is imported: every process the provider
// starts carries the thread's tag in its environment, even when the provider passes an `env` of its
// own, so the host can end them if it abandons the thread.
//
// Every way Node starts a process ends in one of two bindings: spawn, exec, execFile and fork in
// process_wrap's Process#spawn, their synchronous variants in spawn_sync's spawn, each given the
// environment as `KEY=value` pairs. The tag is added there, so the thread does not load
// child_process (with net and dgram under it) until the provider asks for it, and the provider's
// child_process is Node's own, whenever and however it is imported. A Node whose bindings cannot be
// reached, or a line whose bindings' argument layout the tests have not checked (a newer Node), gets
// child_process itself patched before the provider loads, as a fallback.
import { SvcError } from '@svc-org/ai-sdk';

type Spawn = (this: unknown, ...args: unknown[]) => unknown;
interface ProcessWrap {
  Process: { prototype: { spawn: Spawn } };
}
interface SpawnSync {
  spawn: Spawn;
}
/** `process.binding`, or what a test puts in its place. */
export type BindingLookup = (name: string) => unknown;

/** Where a binding's spawn was given the environment: one options object (Node 20, 22), or the fourth argument (Node 24). */
function envPairsOf(args: unknown[]): unknown[] | undefined {
  const [first] = args;
  if (first !== null && typeof first === 'object' && !Array.isArray(first) && Array.isArray((first as { envPairs?: unknown }).envPairs)) {
    return (first as { envPairs: unknown[] }).envPairs;
  }
  if (typeof first === 'string' && Array.isArray(args[3])) return args[3] as unknown[];
  return undefined;
}

function untagged(): SvcError {
  return new SvcError({
    code: 'spawn_untagged',
    message: 'svc could not find the environment of a process the provider started, so it was not started',
    details: { fix: 'run svc on a Node.js line it supports (20.19, 22.12 or 24 and later)' },
  });
}

/** Wraps a binding's spawn so the pair is in the environment it is given; an unknown argument layout starts nothing. */
function tagged(spawn: Spawn, pair: string): Spawn {
  return function (this: unknown, ...args: unknown[]) {
    const envPairs = envPairsOf(args);
    if (!envPairs) throw untagged();
    if (!envPairs.includes(pair)) envPairs.push(pair);
    return spawn.apply(this, args);
  };
}

/** The two bindings, when this Node lets them be reached and they have the expected shape. */
function spawnBindings(binding: BindingLookup): { processWrap: ProcessWrap; spawnSync: SpawnSync } | undefined {
  // process.binding is deprecated (DEP0111) but kept for these two; under --pending-deprecation it
  // would warn once on the provider's stderr.
  const quiet = process.noDeprecation;
  process.noDeprecation = true;
  try {
    const processWrap = binding('process_wrap') as ProcessWrap | undefined;
    const spawnSync = binding('spawn_sync') as SpawnSync | undefined;
    if (typeof processWrap?.Process?.prototype?.spawn !== 'function' || typeof spawnSync?.spawn !== 'function') return undefined;
    return { processWrap, spawnSync };
  } catch {
    return undefined;
  } finally {
    process.noDeprecation = quiet;
  }
}

type Options = { env?: NodeJS.ProcessEnv; envPairs?: string[] };

/** The fallback: child_process itself, patched before any provider code can import it. */
function tagChildProcessModule(name: string, value: string, pair: string): void {
  const childProcess = process.getBuiltinModule('node:child_process');
  // spawn, exec, execFile and fork all end in ChildProcess#spawn with the environment as pairs.
  const proto = childProcess.ChildProcess.prototype as unknown as { spawn(options: Options): unknown };
  const spawn = proto.spawn;
  proto.spawn = function (this: unknown, options: Options) {
    if (Array.isArray(options?.envPairs) && !options.envPairs.includes(pair)) options.envPairs.push(pair);
    return spawn.call(this, options);
  };
  // The synchronous variants do not go through ChildProcess: add the tag to an explicit env.
  const sync = childProcess as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const fn of ['spawnSync', 'execSync', 'execFileSync']) {
    const original = sync[fn]!;
    sync[fn] = function (this: unknown, ...args: unknown[]) {
      const tagged = args.map((arg) =>
        arg && typeof arg === 'object' && !Array.isArray(arg) && (arg as Options).env ? { ...arg, env: { ...(arg as Options).env, [name]: value } } : arg,
      );
      return original.apply(this, tagged);
    };
  }
  // `import { execFileSync } from 'node:child_process'` in the provider sees the wrapped functions.
  process.getBuiltinModule('node:module').syncBuiltinESMExports();
}

/** The Node lines whose binding argument layouts the tests check; any other line gets the fallback. */
const LINES_WITH_KNOWN_LAYOUT = new Set([20, 22, 24]);

/** Whether this Node line's spawn bindings take the layout `envPairsOf` reads. */
export function bindingLayoutKnown(version: string = process.versions.node): boolean {
  return LINES_WITH_KNOWN_LAYOUT.has(Number.parseInt(version, 10));
}

/** Tags every process this thread starts from now on; says where the tag is added. */
export function tagChildProcesses(
  name: string,
  value: string,
  binding: BindingLookup = (id) => (process as unknown as { binding: BindingLookup }).binding(id),
  layoutKnown: boolean = bindingLayoutKnown(),
): 'bindings' | 'child_process' {
  process.env[name] = value;
  const pair = `${name}=${value}`;
  const bindings = layoutKnown ? spawnBindings(binding) : undefined;
  if (!bindings) {
    tagChildProcessModule(name, value, pair);
    return 'child_process';
  }
  const proto = bindings.processWrap.Process.prototype;
  proto.spawn = tagged(proto.spawn, pair);
  bindings.spawnSync.spawn = tagged(bindings.spawnSync.spawn, pair);
  return 'bindings';
}
