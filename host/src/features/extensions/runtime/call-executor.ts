// Runs one adapter call on a provider's pool: its channel to the worker (the Host Context served
// under the extension's grants), its deadline counted from the moment it runs, its cancel and grace
// period, the crash report of a worker that fails, and what it counts in the statistics.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { AdapterCall, AdapterMethodName, CliStreamEvent, PlatformInfo, SvcErrorData } from '@svc-org/ai-sdk';
import { AdapterMethods, SvcError, isIntegrationMethod } from '@svc-org/ai-sdk';
import type { Logger } from '../../../platform/logging/index.js';
import type { ProviderStatsRecorder } from '../stats/index.js';
import type { CallOptions } from './call-options.js';
import { CallChannel, type CallChannelOptions, type CallOutcome } from './call-channel.js';
import { CallStop, type StopReason } from './call-stop.js';
import { IntegrationFileGuard, integrationCallScope } from './integration-file-guard.js';
import type { LoadableExtension } from './loadable-extension.js';
import { LogRateLimiter } from './log-rate-limiter.js';
import type { PluginStorageStore } from './plugin-storage-store.js';
import type { ProviderCrash } from './provider-crash.js';
import type { PoolEntry, ProviderPools } from './provider-pools.js';
import type { WorkerTask } from './rpc-messages.js';
import type { RuntimeLimits } from './runtime-options.js';

export interface CallExecutorOptions {
  pools: ProviderPools;
  limits: RuntimeLimits;
  storage: PluginStorageStore;
  logger: Logger;
  platform: PlatformInfo;
  hostEnv: NodeJS.ProcessEnv;
  svcHome?: string;
  stats?: ProviderStatsRecorder;
  crashListeners: ReadonlySet<(crash: ProviderCrash) => void>;
}

export class CallExecutor {
  private readonly logLimiters = new Map<string, LogRateLimiter>();

  constructor(private readonly options: CallExecutorOptions) {}

  private timeoutFor(method: AdapterMethodName): number {
    return this.options.limits.callTimeoutMs[AdapterMethods[method].timeout];
  }

  private logLimiterFor(id: string): LogRateLimiter {
    let limiter = this.logLimiters.get(id);
    if (!limiter) {
      limiter = new LogRateLimiter(this.options.limits.logRecordsPerSecond, this.options.limits.logBurst);
      this.logLimiters.set(id, limiter);
    }
    return limiter;
  }

  async execute(
    extension: LoadableExtension,
    call: AdapterCall,
    options: CallOptions,
    onEvents?: (events: CliStreamEvent[], sizes: number[]) => void,
    onChannel?: (channel: CallChannel) => void,
  ): Promise<CallOutcome> {
    const { method } = call;
    const loading = this.options.pools.prepare(extension);
    if (loading) await loading;
    const entry = this.options.pools.poolFor(extension);
    const startedAt = performance.now();
    const { port1, port2 } = new MessageChannel();
    const timeoutMs = options.timeoutMs ?? this.timeoutFor(method);
    const stop = new CallStop(timeoutMs, this.options.limits.cancelGraceMs);
    const stream = new StreamFailureWatch(onEvents);
    const channel = this.openChannel(port1, { extension, call, options, entry, stop, timeoutMs, onEvents: stream.relay });
    stop.bind(channel);
    onChannel?.(channel);
    // An integration call's own permission was checked to start it: the call is its use.
    if (this.options.stats && isIntegrationMethod(method)) this.options.stats.permissionUsed(extension.id, `integration:${method.split('.')[0]}`);
    entry.active.add(channel);

    const onAbort = () => stop.stop('cancelled');
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    const run = this.runOnWorker(port2, { extension, call, entry, channel, stop });

    const answered = await channel.done;
    stop.clear();
    options.signal?.removeEventListener('abort', onAbort);
    await this.endCall(entry, channel, stop, run);
    const outcome = stop.outcome(answered, method);
    this.recordCall(extension, method, outcome, reportedFailure(method, outcome, stream.failure, stop.endedBy), startedAt);
    return outcome;
  }

  /** The host's end of the call's port, serving the Host Context under the extension's grants. */
  private openChannel(port: MessagePort, call: OpenedCall & { options: CallOptions; timeoutMs: number; onEvents: (events: CliStreamEvent[], sizes: number[]) => void }): CallChannel {
    const { extension, options, stop, timeoutMs } = call;
    const { method, args } = call.call;
    const { limits, logger } = this.options;
    const integration = isIntegrationMethod(method);
    const channel: CallChannel = new CallChannel(port, {
      pluginId: extension.id,
      granted: extension.granted,
      integrationCall: integration,
      integrationFiles: integration
        ? new IntegrationFileGuard({
            pluginId: extension.id,
            declared: extension.integrationFiles,
            cliName: extension.cliName ?? '',
            scope: integrationCallScope(args),
            homeDir: this.options.platform.homeDir,
            svcHome: this.options.svcHome,
            readOnly: method.endsWith('.inspect'),
          })
        : undefined,
      storage: this.options.storage,
      logger: logger.child({ plugin: extension.id }),
      hostEnv: this.options.hostEnv,
      connectionEnv: options.connectionEnv,
      loadConfig: options.loadConfig ?? (async () => ({})),
      maxProcessTimeoutMs: timeoutMs,
      onEvents: call.onEvents,
      onSpawn: options.onSpawn,
      // The deadline counts from the moment the call runs, not while it waits for a thread.
      onStart: () => stop.startDeadline(),
      eventWindowBytes: limits.eventWindowBytes,
      maxEventBytes: limits.maxEventBytes,
      logLimiter: this.logLimiterFor(extension.id),
      maxLogMessageChars: limits.maxLogMessageChars,
      storageQuotaBytes: limits.storageQuotaBytes,
      // A hardened process's messages are measured as they come off its channel (process-pool.ts).
      messageBounds: extension.isolation === 'process' ? undefined : { maxBytes: limits.maxMessageBytes, maxDepth: limits.maxMessageDepth },
      onProtocolFault: (error) => this.protocolFault({ ...call, channel }, error),
      ...this.statsCallbacks(extension),
    });
    return channel;
  }

  /** The provider broke the message protocol: the call fails and its worker is stopped as a crash. */
  private protocolFault(call: OpenedCall & { channel: CallChannel }, error: SvcErrorData): void {
    const { extension, entry, channel } = call;
    const { method } = call.call;
    if (channel.settled) return;
    this.options.logger.error('provider broke the message protocol', { plugin: extension.id, method, code: error.code });
    for (const listener of this.options.crashListeners) listener({ pluginId: extension.id, method, reason: error.message });
    channel.fail(error);
    // Its thread or process may hold anything: it is stopped, like a call that would not stop.
    if (channel.threadId !== undefined) this.options.pools.abandonThread(entry, channel.threadId, channel);
  }

  /** What the worker reports of itself and the permissions the call uses, for the statistics. */
  private statsCallbacks(extension: LoadableExtension): Pick<CallChannelOptions, 'onStats' | 'onPermissionUse'> {
    const { stats } = this.options;
    if (!stats) return {};
    return {
      onStats: (reported) => {
        if (reported.load !== undefined) stats.activated(extension.id, reported.load);
        // A thread shares the service's RSS: only a hardened process has its own.
        const isolation = extension.isolation ?? 'worker';
        stats.memory(extension.id, isolation, reported.heap, isolation === 'process' ? reported.rss : undefined);
      },
      onPermissionUse: (permission, hostMethod) => {
        stats.permissionUsed(extension.id, permission);
        // The network a provider is granted is its CLI's: it is used by each process it starts.
        if (hostMethod === '$process.spawn' && extension.granted.has('network:provider')) stats.permissionUsed(extension.id, 'network:provider');
      },
    };
  }

  /** Runs the call on a thread of the extension's pool; a thread that fails is reported as a crash. */
  private runOnWorker(port: MessagePort, call: OpenedCall & { channel: CallChannel }): WorkerRun {
    const { extension, entry, channel } = call;
    const { limits, platform } = this.options;
    const task: WorkerTask = {
      port,
      entryPath: entry.entryPath,
      pluginId: extension.id,
      ...call.call,
      cli: extension.cli,
      platform,
      maxEventBytes: limits.maxEventBytes,
      maxMessageDepth: limits.maxMessageDepth,
    };
    const run: WorkerRun = { settled: false, done: Promise.resolve() };
    run.done = entry.pool.run(task, { transferList: [port] }).then(
      // A task that returns without a `done` message (it should not) must not hang the caller.
      () => {
        run.settled = true;
        setTimeout(() => channel.fail({ code: 'worker_crashed', message: 'the provider worker ended the call without a result' }), 1000).unref();
      },
      (error: Error) => {
        run.settled = true;
        this.workerFailed(call, error);
      },
    );
    return run;
  }

  private workerFailed(call: OpenedCall & { channel: CallChannel }, error: Error): void {
    const { extension, entry, channel, stop } = call;
    const { method } = call.call;
    const { logger } = this.options;
    if (channel.settled || stop.endedBy || entry.retiring) {
      // The call already has its outcome, or its thread was stopped on purpose (unload,
      // abandonment, idle shutdown after the result): not a crash.
      logger.debug('provider worker stopped', { plugin: extension.id, method, reason: entry.retiring ?? stop.endedBy ?? 'after result' });
      channel.fail(entry.retiring === 'unloaded' ? { code: 'cancelled', message: 'the call was cancelled: the provider was unloaded' } : stop.error(stop.endedBy ?? 'cancelled', false));
      return;
    }
    logger.error('provider worker crashed', { plugin: extension.id, method, error: error.message });
    const crash: ProviderCrash = { pluginId: extension.id, method, reason: logger.redactor.text(error.message) };
    for (const listener of this.options.crashListeners) listener(crash);
    // A process the host stopped for what it sent fails with that reason's code.
    if (SvcError.isInstance(error)) channel.fail({ code: error.code, message: logger.redactor.text(error.message) });
    else channel.fail({ code: 'worker_crashed', message: `the provider worker failed: ${logger.redactor.text(error.message)}` });
  }

  /** The host owns lifecycles: nothing a call started outlives it, and its thread is let go or given up. */
  private async endCall(entry: PoolEntry, channel: CallChannel, stop: CallStop, run: WorkerRun): Promise<void> {
    if (stop.abandoned && channel.threadId !== undefined) this.options.pools.abandonThread(entry, channel.threadId, channel);
    await channel.killProcesses(stop.endedBy ?? 'cancelled');
    const release = () => {
      channel.close();
      entry.active.delete(channel);
      this.options.pools.callEnded(entry);
    };
    if (run.settled || stop.abandoned) release();
    else void this.options.pools.watchRelease(entry, channel, run.done).finally(release);
  }

  private recordCall(extension: LoadableExtension, method: AdapterMethodName, outcome: CallOutcome, failure: SvcErrorData | undefined, startedAt: number): void {
    const { stats, logger } = this.options;
    if (!stats) return;
    // The host starts the session's CLI from this description: that start is the provider's use of
    // process:spawn, as a Host Context spawn is, and the CLI it starts uses the provider's network.
    if (method === 'buildSessionProcess' && !failure && extension.granted.has('process:spawn')) {
      stats.permissionUsed(extension.id, 'process:spawn');
      if (extension.granted.has('network:provider')) stats.permissionUsed(extension.id, 'network:provider');
    }
    stats.call({
      id: extension.id,
      method,
      ms: performance.now() - startedAt,
      ...(failure ? { code: failure.code, message: logger.redactor.text(failure.message) } : {}),
    });
  }
}

/** One call on its way: what every step of `execute` is handed. */
interface OpenedCall {
  extension: LoadableExtension;
  call: AdapterCall;
  entry: PoolEntry;
  stop: CallStop;
}

/** The worker's task for a call: whether the pool has settled it, and when. */
interface WorkerRun {
  settled: boolean;
  done: Promise<void>;
}

/** A stream that ended in an error event failed although its call returned: the statistics count it. */
class StreamFailureWatch {
  failure: SvcErrorData | undefined;
  readonly relay: (events: CliStreamEvent[], sizes: number[]) => void;

  constructor(onEvents: ((events: CliStreamEvent[], sizes: number[]) => void) | undefined) {
    this.relay = (events, sizes) => {
      if (!this.failure) for (const event of events) if (event.type === 'error') (this.failure = { code: event.code, message: event.message });
      onEvents?.(events, sizes);
    };
  }
}

/**
 * How a call failed, for the statistics: its error, or how one that returned still failed (a stream
 * cancelled by its caller, which ends with `finish cancelled`, no throw; a stream that ended in an
 * error event; a `generate()` result with an error).
 */
function reportedFailure(method: AdapterMethodName, outcome: CallOutcome, streamFailure: SvcErrorData | undefined, endedBy: StopReason | undefined): SvcErrorData | undefined {
  if (!outcome.ok) return outcome.error;
  const { value } = outcome;
  if (endedBy === 'cancelled') return { code: 'cancelled', message: 'the call was cancelled' };
  if (method === 'stream') return streamFailure;
  if (method !== 'generate' || typeof value !== 'object' || value === null) return undefined;
  const { error } = value as { error?: { code?: unknown; message?: unknown } };
  return typeof error?.code === 'string' ? { code: error.code, message: typeof error.message === 'string' ? error.message : '' } : undefined;
}
