// Loads enabled providers on demand into worker threads (one piscina pool per extension) and runs
// adapter calls there. The host owns every call's deadline, cancellation and child processes; a
// worker that throws, exits, leaks a rejection or loops forever costs only that call.
import { MessageChannel } from 'node:worker_threads';
import Piscina from 'piscina';
import type { CliStreamEvent, PlatformInfo, ResolvedCli, SvcErrorData } from '@svc-org/ai-sdk';
import { SvcError } from '@svc-org/ai-sdk';
import type { Logger } from '../../logging/index.js';
import { scrubbedWorkerEnv } from '../../processes/child-env.js';
import { CallChannel, type CallOutcome } from './call-channel.js';
import { EventQueue } from './event-queue.js';
import type { PluginStorageStore } from './plugin-storage-store.js';
import { EVENT_BATCH_SIZE, type AdapterMethod, type WorkerTask } from './rpc-messages.js';
import { resolveRuntimeLimits, type RuntimeLimits, type RuntimeLimitsInput } from './runtime-options.js';
import { resolveWorkerFile } from './worker-file.js';

/** An extension that passed preflight and whose permissions are confirmed: ready to load. */
export interface LoadableExtension {
  id: string;
  entryPath: string;
  /** Changes when the code changes (a rebuild, an update): a new revision gets fresh threads. */
  revision: string;
  granted: ReadonlySet<string>;
  cli: ResolvedCli;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Connection-level environment for spawned CLIs (host-owned). */
  connectionEnv?: Record<string, string>;
  /** Provider settings, served to the adapter only with `config:provider`. */
  loadConfig?: () => Promise<Record<string, unknown>>;
  onSpawn?: (pid: number, command: string) => void;
}

export interface ExtensionRuntimeOptions {
  storage: PluginStorageStore;
  logger: Logger;
  platform: PlatformInfo;
  hostEnv?: NodeJS.ProcessEnv;
  limits?: RuntimeLimitsInput;
  workerFile?: string;
}

interface PoolEntry {
  revision: string;
  pool: Piscina;
  active: Set<CallChannel>;
}

const INTEGRATION_METHODS = new Set<AdapterMethod>([
  'mcp.inspect', 'mcp.install', 'mcp.uninstall',
  'hooks.inspect', 'hooks.install', 'hooks.uninstall',
  'skills.inspect', 'skills.install', 'skills.uninstall',
]);

export class ExtensionRuntime {
  private readonly pools = new Map<string, PoolEntry>();
  private readonly limits: RuntimeLimits;
  private readonly workerFile: string;
  private readonly hostEnv: NodeJS.ProcessEnv;

  constructor(private readonly options: ExtensionRuntimeOptions) {
    this.limits = resolveRuntimeLimits(options.limits);
    this.workerFile = options.workerFile ?? resolveWorkerFile();
    this.hostEnv = options.hostEnv ?? process.env;
  }

  /** Runs one adapter call to completion; a failure is thrown as an SvcError with its code. */
  async call(extension: LoadableExtension, method: Exclude<AdapterMethod, 'stream'>, args: unknown[], options: CallOptions = {}): Promise<unknown> {
    const outcome = await this.execute(extension, method, args, options);
    if (!outcome.ok) throw new SvcError({ ...outcome.error, pluginId: extension.id });
    return outcome.value;
  }

  /**
   * Streams a query's events as they arrive. Never throws: a failure is an `error` event followed
   * by `finish`. Breaking out of the loop cancels the call and kills its processes.
   */
  stream(extension: LoadableExtension, request: unknown, options: CallOptions = {}): AsyncIterable<CliStreamEvent> {
    const local = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, local.signal]) : local.signal;
    let channel: CallChannel | undefined;
    const queue = new EventQueue((n) => channel?.grantCredit(n), EVENT_BATCH_SIZE, () => local.abort());
    let sawFinish = false;
    let sawError = false;
    void this.execute(extension, 'stream', [request], { ...options, signal }, (events) => {
      for (const event of events) {
        if (event.type === 'finish') sawFinish = true;
        if (event.type === 'error') sawError = true;
      }
      queue.push(events);
    }, (created) => (channel = created)).then((outcome) => {
      if (!outcome.ok) {
        const cancelled = outcome.error.code === 'cancelled';
        if (!sawError) queue.push([{ type: 'error', code: outcome.error.code, message: outcome.error.message }]);
        if (!sawFinish) queue.push([{ type: 'finish', finishReason: cancelled ? 'cancelled' : 'error' }]);
      }
      queue.end();
    });
    return queue;
  }

  /** Stops an extension's threads (disable, update, uninstall): running calls are cancelled. */
  async unload(id: string): Promise<void> {
    const entry = this.pools.get(id);
    if (!entry) return;
    this.pools.delete(id);
    await this.retire(entry, 'unloaded');
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.keys()].map((id) => this.unload(id)));
  }

  /** Number of live worker threads of an extension (0 when unloaded or idle-unloaded). */
  threadCount(id: string): number {
    return this.pools.get(id)?.pool.threads.length ?? 0;
  }

  private poolFor(extension: LoadableExtension): PoolEntry {
    const current = this.pools.get(extension.id);
    if (current && current.revision === extension.revision) return current;
    if (current) {
      // New code: new calls go to fresh threads; calls already running finish on the old ones.
      this.pools.delete(extension.id);
      void this.retireWhenIdle(current);
    }
    const pool = new Piscina({
      filename: this.workerFile,
      name: 'default',
      minThreads: 0,
      maxThreads: this.limits.maxThreads,
      idleTimeout: this.limits.idleTimeoutMs,
      concurrentTasksPerWorker: this.limits.concurrentTasksPerWorker,
      atomics: 'disabled',
      env: scrubbedWorkerEnv(this.hostEnv),
      resourceLimits: {
        maxOldGenerationSizeMb: this.limits.maxOldGenerationSizeMb,
        maxYoungGenerationSizeMb: this.limits.maxYoungGenerationSizeMb,
        stackSizeMb: this.limits.stackSizeMb,
      },
    });
    pool.on('error', (error: Error) => this.options.logger.error('provider worker error', { plugin: extension.id, error: error.message }));
    const entry: PoolEntry = { revision: extension.revision, pool, active: new Set() };
    this.pools.set(extension.id, entry);
    return entry;
  }

  private async retireWhenIdle(entry: PoolEntry): Promise<void> {
    while (entry.active.size > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    await entry.pool.destroy();
  }

  private async retire(entry: PoolEntry, reason: 'unloaded'): Promise<void> {
    for (const channel of entry.active) {
      channel.cancel(reason);
      void channel.killProcesses(reason);
    }
    await Promise.all([...entry.active].map((channel) => channel.killProcesses(reason)));
    await entry.pool.destroy();
  }

  private timeoutFor(method: AdapterMethod): number {
    if (method === 'generate' || method === 'stream') return this.limits.callTimeoutMs.query;
    if (method === 'buildSessionProcess') return this.limits.callTimeoutMs.buildSessionProcess;
    if (method === 'models') return this.limits.callTimeoutMs.models;
    return this.limits.callTimeoutMs.integration;
  }

  private async execute(
    extension: LoadableExtension,
    method: AdapterMethod,
    args: unknown[],
    options: CallOptions,
    onEvents?: (events: CliStreamEvent[]) => void,
    onChannel?: (channel: CallChannel) => void,
  ): Promise<CallOutcome> {
    const entry = this.poolFor(extension);
    const { logger } = this.options;
    const { port1, port2 } = new MessageChannel();
    const timeoutMs = options.timeoutMs ?? this.timeoutFor(method);
    const channel = new CallChannel(port1, {
      pluginId: extension.id,
      granted: extension.granted,
      integrationCall: INTEGRATION_METHODS.has(method),
      storage: this.options.storage,
      logger: logger.child({ plugin: extension.id }),
      hostEnv: this.hostEnv,
      connectionEnv: options.connectionEnv,
      loadConfig: options.loadConfig ?? (async () => ({})),
      maxProcessTimeoutMs: timeoutMs,
      onEvents,
      onSpawn: options.onSpawn,
    });
    onChannel?.(channel);
    entry.active.add(channel);

    const terminate = new AbortController();
    let endedBy: 'cancelled' | 'timeout' | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    const stop = (reason: 'cancelled' | 'timeout') => {
      if (endedBy) return;
      endedBy = reason;
      channel.cancel(reason);
      void channel.killProcesses(reason);
      graceTimer = setTimeout(() => terminate.abort(), this.limits.cancelGraceMs);
    };
    const deadline = setTimeout(() => stop('timeout'), timeoutMs);
    const onAbort = () => stop('cancelled');
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    const task: WorkerTask = {
      port: port2,
      entryPath: extension.entryPath,
      pluginId: extension.id,
      method,
      args,
      cli: extension.cli,
      platform: this.options.platform,
    };
    entry.pool.run(task, { transferList: [port2], signal: terminate.signal }).then(
      // A task that returns without a `done` message (it should not) must not hang the caller.
      () => setTimeout(() => channel.fail({ code: 'worker_crashed', message: 'the provider worker ended the call without a result' }), 1000).unref(),
      (error: Error) => {
        const data: SvcErrorData = endedBy
          ? { code: endedBy === 'timeout' ? 'timeout' : 'cancelled', message: endedBy === 'timeout' ? `the call exceeded its ${timeoutMs} ms deadline and its worker was stopped` : 'the call was cancelled and its worker was stopped' }
          : { code: 'worker_crashed', message: `the provider worker failed: ${logger.redactor.text(error.message)}` };
        if (!endedBy) logger.error('provider worker crashed', { plugin: extension.id, method, error: error.message });
        channel.fail(data);
      },
    );

    let outcome = await channel.done;
    clearTimeout(deadline);
    if (graceTimer) clearTimeout(graceTimer);
    options.signal?.removeEventListener('abort', onAbort);
    // The host owns lifecycles: nothing a call started outlives it.
    await channel.killProcesses(endedBy ?? 'cancelled');
    channel.close();
    entry.active.delete(channel);
    if (endedBy === 'timeout' && (outcome.ok || outcome.error.code !== 'timeout')) {
      outcome = { ok: false, error: { code: 'timeout', message: `the call exceeded its ${timeoutMs} ms deadline` } };
    } else if (endedBy === 'cancelled' && method !== 'stream' && outcome.ok) {
      outcome = { ok: false, error: { code: 'cancelled', message: 'the call was cancelled' } };
    }
    return outcome;
  }
}
