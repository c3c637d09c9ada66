// The provider pools of one runtime: a piscina pool of long-lived worker threads per extension
// (or a hardened process pool), replaced when the code changes and retired on unload, with the
// bounded stop that keeps a stuck provider from holding the service.
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import type Piscina from 'piscina';
import type { Logger } from '../../../platform/logging/index.js';
import { scrubbedWorkerEnv } from '../../../platform/processes/child-env.js';
import { killTaggedProcesses, PROVIDER_THREAD_TAG } from '../../../platform/processes/tagged-processes.js';
import type { CallChannel } from './call-channel.js';
import { hardenedLaunch, providerNodeFlags, providerProcessEnv, providerRootPaths, providerV8Flags, realPath } from './hardened-launch.js';
import { probeIsolation, type IsolationProbe } from './isolation-probe.js';
import type { LoadableExtension } from './loadable-extension.js';
import { ProcessPool } from './process-pool.js';
import { holdProviderRoot, readyProviderRoot, releaseProviderRootsBinding } from './provider-root-holders.js';
import { buildProviderSnapshot, readyProviderSnapshot, type ProviderSnapshotSpec } from './provider-snapshot.js';
import type { ProviderPool } from './provider-pool.js';
import type { RuntimeLimits } from './runtime-options.js';
import { resolveWorkerFile } from './worker-file.js';

export interface PoolEntry {
  id: string;
  /** Undefined for a pool started ahead of its first call (`warm`): its thread has run no provider code yet. */
  revision: string | undefined;
  /** Every process a thread of this pool starts carries `<tag>.<threadId>` in its environment. */
  tag: string;
  pool: ProviderPool;
  active: Set<CallChannel>;
  /** The entry as this pool loads it (a hardened process loads it by its real path). */
  entryPath: string;
  /** A hardened pool's package folder (its real path), which the provider root it joins binds. */
  packageDir?: string;
  /** Set once the pool takes no new calls: why its calls end. */
  retiring?: 'replaced' | 'unloaded' | 'abandoned';
  /** A pool made ahead: settles once its thread has answered a start task (see warm). */
  up?: Promise<void>;
  /** A worker pool with no call running: it is closed when this fires (see callEnded). */
  idleTimer?: NodeJS.Timeout;
}

export interface ProviderPoolsOptions {
  limits: RuntimeLimits;
  logger: Logger;
  hostEnv: NodeJS.ProcessEnv;
  workerFile: string;
  /** The hardened bootstrap bundle; resolved on first use when absent. */
  processBootstrapFile?: string;
  /** Where a hardened launch's live isolation probe is recorded for later listings. */
  svcHome?: string;
}

/** The task that tells when a thread started ahead is up (worker-bootstrap.ts answers it at once). */
export const WARM_TASK = { warm: true } as const;

/** setTimeout's longest delay; a longer idle timeout waits this long. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** piscina, loaded with the first worker pool: a command that starts no provider (`svc ext list`) never loads it. */
let PiscinaClass: typeof Piscina | undefined;

function loadPiscina(): Promise<void> {
  return import('piscina').then((loaded) => {
    PiscinaClass ??= loaded.default;
  });
}

export class ProviderPools {
  private readonly pools = new Map<string, PoolEntry>();
  /** Pools being made ahead of a call while piscina loads, by extension (see warm). */
  private readonly making = new Map<string, Promise<void>>();
  /** Pools that take no new calls but may still run some (replaced, abandoned). */
  private readonly retiring = new Set<PoolEntry>();
  private readonly limits: RuntimeLimits;
  private processBootstrapFile: string | undefined;
  private readonly tagPrefix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  private poolCount = 0;

  constructor(private readonly options: ProviderPoolsOptions) {
    this.limits = options.limits;
    this.processBootstrapFile = options.processBootstrapFile;
  }

  /** Stops an extension's threads (disable, update, uninstall): running calls are cancelled. */
  async unload(id: string): Promise<void> {
    const entries = [...this.retiring].filter((entry) => entry.id === id);
    const current = this.pools.get(id);
    if (current) {
      this.pools.delete(id);
      entries.push(current);
    }
    await Promise.all(entries.map((entry) => this.retire(entry)));
    // Its code no longer serves here: the roots held for its package folders are let go.
    for (const entry of entries) if (entry.packageDir) releaseProviderRootsBinding(entry.packageDir);
  }

  /** Stops every thread; bounded even when a provider is stuck in a native call. */
  async close(): Promise<void> {
    const entries = [...this.pools.values(), ...this.retiring];
    this.pools.clear();
    await Promise.all(entries.map((entry) => this.retire(entry)));
  }

  /** Number of live worker threads of an extension (0 when unloaded or idle-unloaded). */
  threadCount(id: string): number {
    return this.pools.get(id)?.pool.threads.length ?? 0;
  }

  /**
   * What poolFor needs loaded first: piscina for a worker pool, until one has been made. Undefined
   * when nothing is to load, so a call to a provider already loaded waits for nothing more.
   */
  prepare(extension: LoadableExtension): Promise<void> | undefined {
    if (extension.isolation === 'process') return this.prepareRoot(extension);
    if (this.pools.has(extension.id)) return undefined;
    // A pool being made ahead of this call: the call waits for it (piscina loading) rather than
    // making a second one. Its thread need not be up: the call's task waits in the thread's queue.
    const making = this.making.get(extension.id);
    if (making) return making.catch(() => undefined);
    return PiscinaClass ? undefined : loadPiscina();
  }

  /**
   * Makes an extension's worker pool ahead of its first call (while its preflight runs): its thread
   * starts with it and runs svc's worker bootstrap only, and imports no provider code until a call
   * brings the entry preflight passed. Nothing happens when the extension already has a pool.
   * Bounded: one thread per extension; the pool is closed like any idle one (`idleTimeoutMs`) when
   * no call comes. With `untilUp`, settles once that thread has answered a start task; without it,
   * once the pool is made (at once when piscina is loaded), and the thread is given no task but the call's.
   */
  warm(id: string, untilUp = true): Promise<void> {
    // With piscina loaded the pool is made now, so a call prepared right after finds it (a throw rejects).
    const made = PiscinaClass ? new Promise<void>((resolve) => resolve(this.makeAhead(id))) : this.loadThenMake(id);
    return untilUp ? made.then(() => this.up(id)) : made;
  }

  private loadThenMake(id: string): Promise<void> {
    let making = this.making.get(id);
    if (!making) {
      making = loadPiscina()
        .then(() => this.makeAhead(id))
        .finally(() => this.making.delete(id));
      this.making.set(id, making);
    }
    return making;
  }

  private makeAhead(id: string): void {
    if (this.pools.has(id)) return;
    const tag = `${this.tagPrefix}.${++this.poolCount}`;
    const pool = this.workerPoolFor(tag);
    pool.on('error', (error: Error) => this.options.logger.error('provider worker error', { plugin: id, error: error.message }));
    const entry: PoolEntry = { id, revision: undefined, tag, pool, entryPath: '', active: new Set() };
    this.pools.set(id, entry);
    this.callEnded(entry);
  }

  /** Settles once a pool made ahead has its thread up: a task that only starts it has answered (worker-bootstrap.ts). */
  private up(id: string): Promise<void> {
    const entry = this.pools.get(id);
    if (!entry || entry.revision !== undefined) return Promise.resolve();
    entry.up ??= (entry.pool.run(WARM_TASK as never, { transferList: [] }) as Promise<unknown>).then(
      () => undefined,
      () => undefined,
    );
    return entry.up;
  }

  /** The extension's current pool, made when there is none (a worker pool needs prepare() first). */
  poolFor(extension: LoadableExtension): PoolEntry {
    const current = this.pools.get(extension.id);
    if (current) {
      clearTimeout(current.idleTimer);
      current.idleTimer = undefined;
    }
    if (current && current.revision === extension.revision) return current;
    if (current && current.revision === undefined && extension.isolation !== 'process') {
      // Started ahead of this call: its thread has run no provider code, so it serves this revision.
      current.revision = extension.revision;
      current.entryPath = extension.entryPath;
      return current;
    }
    if (current) {
      // New code: new calls go to fresh threads; calls already running finish on the old ones.
      this.pools.delete(extension.id);
      current.retiring = 'replaced';
      this.retiring.add(current);
      void this.retireWhenIdle(current);
    }
    const tag = `${this.tagPrefix}.${++this.poolCount}`;
    const pool = extension.isolation === 'process' ? this.processPoolFor(extension) : this.workerPoolFor(tag);
    pool.on('error', (error: Error) => this.options.logger.error('provider worker error', { plugin: extension.id, error: error.message }));
    const entryPath = extension.isolation === 'process' ? realPath(extension.entryPath) : extension.entryPath;
    const packageDir = extension.isolation === 'process' ? realPath(this.hardenedPaths(extension).packageDir) : undefined;
    // Replaced by another version's folder: the root held for the old one is let go (calls still
    // running there keep the root they joined).
    if (current?.packageDir && current.packageDir !== packageDir) releaseProviderRootsBinding(current.packageDir);
    const entry: PoolEntry = { id: extension.id, revision: extension.revision, tag, pool, entryPath, active: new Set(), ...(packageDir ? { packageDir } : {}) };
    this.pools.set(extension.id, entry);
    return entry;
  }

  /**
   * A hardened provider about to start its process: the start-up snapshot its launches start from
   * built when there is none (provider-snapshot.ts), then its root set up once and held
   * (provider-root-holders.ts), so this launch and the later ones join it rather than set it up.
   * Nothing to wait for when both are there already or the provider's process runs.
   */
  private prepareRoot(extension: LoadableExtension): Promise<void> | undefined {
    const current = this.pools.get(extension.id);
    if (current && current.revision === extension.revision && current.pool.threads.length > 0) return undefined;
    const probe = probeIsolation(this.options.svcHome);
    const paths = this.hardenedPaths(extension);
    const snapshot = this.snapshotSpec(paths.bootstrapFile, probe);
    const hold = () => {
      if (!probe.namespaces || !probe.providerRoot) return undefined;
      const visible = providerRootPaths({ ...paths, snapshotBlob: snapshot && readyProviderSnapshot(snapshot) });
      // A root that could not be held is no failure: the launch then sets its own up.
      return holdProviderRoot(visible, providerProcessEnv(this.options.hostEnv))?.then(() => undefined);
    };
    // A snapshot that could not be built is no failure either: the launch runs the bootstrap bundle.
    if (snapshot === undefined || readyProviderSnapshot(snapshot) !== undefined) return hold();
    return buildProviderSnapshot(snapshot).then(hold);
  }

  private hardenedPaths(extension: LoadableExtension): { packageDir: string; bootstrapFile: string } {
    this.processBootstrapFile ??= resolveWorkerFile('provider-process.mjs');
    return { packageDir: extension.packageDir ?? dirname(extension.entryPath), bootstrapFile: this.processBootstrapFile };
  }

  /** What a launch's start-up snapshot is built for; none for a bootstrap given by the runtime's options. */
  private snapshotSpec(bootstrapFile: string, probe: IsolationProbe): ProviderSnapshotSpec | undefined {
    if (this.options.processBootstrapFile !== undefined) return undefined;
    return {
      nodeBinary: realPath(process.execPath),
      bootstrapFile,
      v8Flags: providerV8Flags({ heapMb: this.limits.maxOldGenerationSizeMb, stackSizeMb: this.limits.stackSizeMb }),
      nodeFlags: providerNodeFlags(probe),
      env: providerProcessEnv(this.options.hostEnv),
    };
  }

  private processPoolFor(extension: LoadableExtension): ProviderPool {
    const paths = this.hardenedPaths(extension);
    const launch = () => {
      // Always live: what a launch enforces never rests on the record.
      const probe = probeIsolation(this.options.svcHome);
      const snapshot = this.snapshotSpec(paths.bootstrapFile, probe);
      const snapshotBlob = snapshot && readyProviderSnapshot(snapshot);
      const rootHolder = probe.namespaces && probe.providerRoot ? readyProviderRoot(providerRootPaths({ ...paths, snapshotBlob })) : undefined;
      return hardenedLaunch({
        ...paths,
        snapshotBlob,
        heapMb: this.limits.maxOldGenerationSizeMb,
        stackSizeMb: this.limits.stackSizeMb,
        hostEnv: this.options.hostEnv,
        probe,
        rootHolder,
      });
    };
    return new ProcessPool(launch, this.limits.idleTimeoutMs, { maxMessageBytes: this.limits.maxMessageBytes, maxMessageDepth: this.limits.maxMessageDepth });
  }

  /**
   * A call on the pool has ended (or the pool was made ahead of its first call): a worker pool with
   * no call running is closed once `idleTimeoutMs` passes without one, its thread with it. (piscina
   * releases a pool's second thread itself; the first is the one it starts with the pool.)
   */
  callEnded(entry: PoolEntry): void {
    if (entry.active.size > 0 || entry.retiring || entry.pool instanceof ProcessPool) return;
    clearTimeout(entry.idleTimer);
    entry.idleTimer = setTimeout(() => {
      entry.idleTimer = undefined;
      if (entry.active.size > 0 || this.pools.get(entry.id) !== entry) return;
      this.pools.delete(entry.id);
      entry.retiring = 'unloaded';
      this.retiring.add(entry);
      void this.destroyPool(entry);
    }, Math.min(this.limits.idleTimeoutMs, MAX_TIMER_MS));
    entry.idleTimer.unref();
  }

  private workerPoolFor(tag: string): ProviderPool {
    // Calls carry no AbortSignal into piscina: piscina runs a task that has one alone on its
    // thread. Deadlines and cancels are the host's own (a cancel message, then abandonment).
    if (!PiscinaClass) throw new Error('ProviderPools.prepare() must load piscina before the first worker pool');
    const pool = new PiscinaClass({
      filename: this.options.workerFile,
      name: 'default',
      // The first thread starts with the pool, and piscina hands it tasks from then on: a call's
      // task waits in the thread's own queue while it starts, with no hop through this thread once
      // it is up. The pool is closed when idle (callEnded).
      minThreads: 1,
      maxThreads: this.limits.maxThreads,
      idleTimeout: this.limits.idleTimeoutMs,
      concurrentTasksPerWorker: this.limits.concurrentTasksPerWorker,
      atomics: 'disabled',
      // piscina's run and wait time histograms, which nothing reads.
      recordTiming: false,
      env: { ...scrubbedWorkerEnv(this.options.hostEnv), [PROVIDER_THREAD_TAG]: tag },
      resourceLimits: {
        maxOldGenerationSizeMb: this.limits.maxOldGenerationSizeMb,
        maxYoungGenerationSizeMb: this.limits.maxYoungGenerationSizeMb,
        stackSizeMb: this.limits.stackSizeMb,
      },
    });
    return pool as unknown as ProviderPool;
  }

  private async retireWhenIdle(entry: PoolEntry): Promise<void> {
    while (entry.active.size > 0) await sleep(50);
    await this.destroyPool(entry);
  }

  private async retire(entry: PoolEntry): Promise<void> {
    entry.retiring = 'unloaded';
    this.retiring.add(entry);
    for (const channel of entry.active) {
      channel.cancel('unloaded');
      void channel.killProcesses('unloaded');
    }
    // Processes get their polite stop; a provider that does not let them go does not hold us up.
    await Promise.race([Promise.all([...entry.active].map((channel) => channel.killProcesses('unloaded'))), sleep(this.limits.cancelGraceMs)]);
    await this.destroyPool(entry);
  }

  /** piscina's destroy waits for every thread to exit; a thread stuck in a native call is not waited for. */
  private async destroyPool(entry: PoolEntry): Promise<void> {
    clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
    const destroyed = entry.pool.destroy().then(() => true);
    const inTime = await Promise.race([destroyed, sleep(this.limits.cancelGraceMs).then(() => false)]);
    if (!inTime) {
      // What blocks a thread is nearly always a process it waits for (execFileSync): end them all.
      const killed = killTaggedProcesses(PROVIDER_THREAD_TAG, entry.tag);
      this.options.logger.warn('provider worker did not stop; its processes were killed', { plugin: entry.id, killed: killed.length });
    }
    this.retiring.delete(entry);
  }

  /**
   * Gives up on a thread whose call did not stop within the grace period: the thread is
   * terminated without waiting, every process it started is killed (tagged, so detached ones too),
   * the other calls on it fail, and the extension's next call gets a fresh pool.
   */
  abandonThread(entry: PoolEntry, threadId: number, cause: CallChannel): void {
    const worker = entry.pool.threads.find((thread) => thread.threadId === threadId);
    void worker?.terminate().catch(() => undefined);
    const killed = killTaggedProcesses(PROVIDER_THREAD_TAG, `${entry.tag}.${threadId}`);
    for (const other of entry.active) {
      if (other !== cause && other.threadId === threadId) {
        other.fail({ code: 'worker_crashed', message: 'the call was stopped with its worker thread: another call on that thread did not stop' });
      }
    }
    this.options.logger.warn('provider worker abandoned: a call did not stop within the grace period', {
      plugin: entry.id,
      graceMs: this.limits.cancelGraceMs,
      killedProcesses: killed.length,
    });
    if (this.pools.get(entry.id) === entry) this.pools.delete(entry.id);
    if (!entry.retiring) {
      entry.retiring = 'abandoned';
      this.retiring.add(entry);
      void this.retireWhenIdle(entry);
    }
  }

  /**
   * The caller has its outcome but the worker still holds the call (it is winding down, or it
   * started just as it was cancelled in the queue). A call that does not let go of its thread
   * within the grace period after it started is abandoned.
   */
  async watchRelease(entry: PoolEntry, channel: CallChannel, taskDone: Promise<void>): Promise<void> {
    const first = await Promise.race([taskDone.then(() => 'done' as const), channel.started.then(() => 'started' as const)]);
    if (first === 'done') return;
    const letGo = await Promise.race([taskDone.then(() => true), sleep(this.limits.cancelGraceMs).then(() => false)]);
    if (!letGo && !entry.retiring && channel.threadId !== undefined) this.abandonThread(entry, channel.threadId, channel);
  }
}
