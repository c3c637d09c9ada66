// A hardened provider's read-only root, set up once per service life instead of at each launch. The
// set-up (a tmpfs, two `mount`s per bound path) is most of a hardened launch's cost; its result is
// the same for every launch of one provider: the system's libraries, node, the bootstrap and that
// provider's package, read-only. So one holder per provider (per set of bound paths) sets it up in
// its own user and mount namespaces and waits there; a launch joins those two namespaces and the
// root (`nsenter`), and still makes its own PID, network and mount namespaces and its own /proc, so
// a provider process sees no other process, has no network, and dies with its wrapper as before.
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { providerRootHoldArgs, providerRootMountPoint } from './provider-root.js';

interface Holder {
  proc: ChildProcess;
  /** The holder's pid once its root is set up; undefined while it starts. */
  pid: number | undefined;
  /** Settles once the root is set up (true) or the holder failed or ended (false). */
  ready: Promise<boolean>;
  ended: boolean;
  /** When it was last started or joined, in launches counted (`uses`). */
  lastUsed: number;
}

/** Roots kept at once; beyond it the one used longest ago is released (a later launch sets it up again). */
const MAX_HOLDERS = 8;

const holders = new Map<string, Holder>();
let exitHooked = false;
let uses = 0;

const keyOf = (visible: string[]) => visible.join('\0');

/**
 * The pid of a running holder whose root holds `visible`, set up and ready: what a launch joins.
 * Undefined when there is none yet (see holdProviderRoot), or it ended: the launch then sets its own
 * root up, as it would without holders.
 */
export function readyProviderRoot(visible: string[]): number | undefined {
  const holder = holders.get(keyOf(visible));
  // `ended` is set synchronously when Node reaps the holder, so a pid read here was not reused.
  if (!holder || holder.ended || holder.pid === undefined) return undefined;
  holder.lastUsed = ++uses;
  return holder.pid;
}

/**
 * Starts the holder of `visible`'s root when none runs; undefined when one is ready, else what
 * settles once it is (false: it could not be set up, and launches set their own root up).
 */
export function holdProviderRoot(visible: string[], env: Record<string, string>): Promise<boolean> | undefined {
  const key = keyOf(visible);
  const current = holders.get(key);
  if (current && !current.ended) return current.pid === undefined ? current.ready : undefined;
  const holder = startHolder(key, visible, env);
  holders.set(key, holder);
  releaseOldest();
  return holder.ready;
}

function startHolder(key: string, visible: string[], env: Record<string, string>): Holder {
  // Its input is a pipe from this process: when the host exits, however it exits, the pipe closes
  // and the holder's `cat` ends, and with it the namespaces and the root.
  const proc = spawn('unshare', ['-rm', ...providerRootHoldArgs(providerRootMountPoint(), visible)], {
    env,
    stdio: ['pipe', 'pipe', 'ignore'],
    // Its own process group: the host's terminal signals and a provider group's kill do not reach it.
    detached: true,
  });
  let settle!: (ok: boolean) => void;
  const holder: Holder = { proc, pid: undefined, ready: new Promise((resolve) => (settle = resolve)), ended: false, lastUsed: ++uses };
  const end = () => {
    holder.ended = true;
    holder.pid = undefined;
    if (holders.get(key) === holder) holders.delete(key);
    settle(false);
  };
  proc.once('error', end);
  proc.once('exit', end);
  let said = '';
  proc.stdout?.setEncoding('utf8');
  proc.stdout?.on('data', (text: string) => {
    said += text;
    if (holder.pid === undefined && !holder.ended && said.includes('ready\n')) {
      // A launch joins the holder's root: it must be the provider root, not the host's.
      if (proc.pid === undefined || !chrooted(proc.pid)) {
        release(holder);
        return;
      }
      holder.pid = proc.pid;
      // Once set up, nothing of it keeps the host's event loop alive (a launch waiting for it does, until then).
      proc.unref();
      for (const stream of [proc.stdin, proc.stdout]) (stream as unknown as { unref?: () => void } | null)?.unref?.();
      settle(true);
    }
  });
  proc.stdin?.on('error', () => undefined);
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', releaseProviderRoots);
  }
  return holder;
}

/** Whether the process's root is another file system than this process's own root (its tmpfs). */
function chrooted(pid: number): boolean {
  try {
    return statSync(`/proc/${pid}/root/`).dev !== statSync('/').dev;
  } catch {
    return false;
  }
}

function releaseOldest(): void {
  while (holders.size > MAX_HOLDERS) {
    const [key, oldest] = [...holders.entries()].reduce((a, b) => (b[1].lastUsed < a[1].lastUsed ? b : a));
    holders.delete(key);
    release(oldest);
  }
}

function release(holder: Holder): void {
  holder.ended = true;
  holder.pid = undefined;
  try {
    holder.proc.kill('SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Ends the holders whose root binds `path` (a provider's package folder, uninstalled or replaced by
 * another version's): a root held for code that no longer serves would keep that folder bound (and
 * its files open) until the service exits. A later launch that needs it sets it up again. Launched
 * provider processes are not affected (see below). Returns how many were ended.
 */
export function releaseProviderRootsBinding(path: string): number {
  let released = 0;
  for (const [key, holder] of holders) {
    if (!key.split('\0').includes(path)) continue;
    holders.delete(key);
    release(holder);
    released += 1;
  }
  return released;
}

/** Ends every holder (the host exits). Launched provider processes are not affected: each is in its own PID namespace and group. */
export function releaseProviderRoots(): void {
  for (const holder of holders.values()) release(holder);
  holders.clear();
}
