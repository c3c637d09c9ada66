// Runs one adapter call on a provider's pool: its channel to the worker (the Host Context served
// under the extension's grants), its deadline counted from the moment it runs, its cancel and grace
// period, the crash report of a worker that fails, and what it counts in the statistics.
import { MessageChannel } from 'node:worker_threads';
import type { AdapterCall, AdapterMethodName, CliStreamEvent, PlatformInfo, SvcErrorData } from '@svc-org/ai-sdk';
import { AdapterMethods, SvcError, isIntegrationMethod } from '@svc-org/ai-sdk';
import type { Logger } from '../../../platform/logging/index.js';
import type { ProviderStatsRecorder } from '../stats/index.js';
import type { CallOptions } from './call-options.js';
import { CallChannel, type CallOutcome } from './call-channel.js';
import { IntegrationFileGuard, integrationCallScope } from './integration-file-guard.js';
import type { LoadableExtension } from './loadable-extension.js';
import { LogRateLimiter } from './log-rate-limiter.js';
import type { PluginStorageStore } from './plugin-storage-store.js';
import type { ProviderCrash } from './provider-crash.js';
import type { ProviderPools } from './provider-pools.js';
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
    const { method, args } = call;
    const loading = this.options.pools.prepare(extension);
    if (loading) await loading;
    const entry = this.options.pools.poolFor(extension);
    const { logger, stats } = this.options;
    const startedAt = performance.now();
    const { port1, port2 } = new MessageChannel();
    const timeoutMs = options.timeoutMs ?? this.timeoutFor(method);
    let deadline: NodeJS.Timeout | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    let endedBy: 'cancelled' | 'timeout' | undefined;
    let abandon = false;
    // A stream that ended in an error event failed although its call returned: the statistics count it.
    let streamFailure: SvcErrorData | undefined;
    const relay = (events: CliStreamEvent[], sizes: number[]) => {
      if (!streamFailure) for (const event of events) if (event.type === 'error') (streamFailure = { code: event.code, message: event.message });
      onEvents?.(events, sizes);
    };

    const stopped = (reason: 'cancelled' | 'timeout', abandoned: boolean): SvcErrorData => {
      const tail = abandoned ? `; its worker did not stop within ${this.options.limits.cancelGraceMs} ms and was abandoned` : '';
      return reason === 'timeout'
        ? { code: 'timeout', message: `the call exceeded its ${timeoutMs} ms deadline${tail}` }
        : { code: 'cancelled', message: `the call was cancelled${tail}` };
    };
    const stop = (reason: 'cancelled' | 'timeout') => {
      if (endedBy || channel.settled) return;
      endedBy = reason;
      channel.cancel(reason);
      void channel.killProcesses(reason);
      if (channel.threadId === undefined) {
        // Still queued: nothing of the provider ran. The cancel waits in the port; the worker
        // drops the call when it reaches it.
        channel.fail(stopped(reason, false));
        return;
      }
      graceTimer = setTimeout(() => {
        abandon = true;
        channel.fail(stopped(reason, true));
      }, this.options.limits.cancelGraceMs);
    };

    const channel: CallChannel = new CallChannel(port1, {
      pluginId: extension.id,
      granted: extension.granted,
      integrationCall: isIntegrationMethod(method),
      integrationFiles: isIntegrationMethod(method)
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
      onEvents: relay,
      onSpawn: options.onSpawn,
      // The deadline counts from the moment the call runs, not while it waits for a thread.
      onStart: () => {
        if (!endedBy) deadline = setTimeout(() => stop('timeout'), timeoutMs);
      },
      eventWindowBytes: this.options.limits.eventWindowBytes,
      maxEventBytes: this.options.limits.maxEventBytes,
      logLimiter: this.logLimiterFor(extension.id),
      maxLogMessageChars: this.options.limits.maxLogMessageChars,
      storageQuotaBytes: this.options.limits.storageQuotaBytes,
      // A hardened process's messages are measured as they come off its channel (process-pool.ts).
      messageBounds: extension.isolation === 'process' ? undefined : { maxBytes: this.options.limits.maxMessageBytes, maxDepth: this.options.limits.maxMessageDepth },
      onProtocolFault: (error) => {
        if (channel.settled) return;
        logger.error('provider broke the message protocol', { plugin: extension.id, method, code: error.code });
        for (const listener of this.options.crashListeners) listener({ pluginId: extension.id, method, reason: error.message });
        channel.fail(error);
        // Its thread or process may hold anything: it is stopped, like a call that would not stop.
        if (channel.threadId !== undefined) this.options.pools.abandonThread(entry, channel.threadId, channel);
      },
      ...(stats
        ? {
            onStats: (reported: { heap: number; rss: number; load?: number }) => {
              if (reported.load !== undefined) stats.activated(extension.id, reported.load);
              // A thread shares the service's RSS: only a hardened process has its own.
              const isolation = extension.isolation ?? 'worker';
              stats.memory(extension.id, isolation, reported.heap, isolation === 'process' ? reported.rss : undefined);
            },
            onPermissionUse: (permission: string, hostMethod: string) => {
              stats.permissionUsed(extension.id, permission);
              // The network a provider is granted is its CLI's: it is used by each process it starts.
              if (hostMethod === '$process.spawn' && extension.granted.has('network:provider')) stats.permissionUsed(extension.id, 'network:provider');
            },
          }
        : {}),
    });
    onChannel?.(channel);
    // An integration call's own permission was checked to start it: the call is its use.
    if (stats && isIntegrationMethod(method)) stats.permissionUsed(extension.id, `integration:${method.split('.')[0]}`);
    entry.active.add(channel);

    const onAbort = () => stop('cancelled');
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    const task: WorkerTask = {
      port: port2,
      entryPath: entry.entryPath,
      pluginId: extension.id,
      ...call,
      cli: extension.cli,
      platform: this.options.platform,
      maxEventBytes: this.options.limits.maxEventBytes,
      maxMessageDepth: this.options.limits.maxMessageDepth,
    };
    let taskSettled = false;
    const taskDone = entry.pool.run(task, { transferList: [port2] }).then(
      // A task that returns without a `done` message (it should not) must not hang the caller.
      () => {
        taskSettled = true;
        setTimeout(() => channel.fail({ code: 'worker_crashed', message: 'the provider worker ended the call without a result' }), 1000).unref();
      },
      (error: Error) => {
        taskSettled = true;
        if (channel.settled || endedBy || entry.retiring) {
          // The call already has its outcome, or its thread was stopped on purpose (unload,
          // abandonment, idle shutdown after the result): not a crash.
          logger.debug('provider worker stopped', { plugin: extension.id, method, reason: entry.retiring ?? endedBy ?? 'after result' });
          channel.fail(entry.retiring === 'unloaded' ? { code: 'cancelled', message: 'the call was cancelled: the provider was unloaded' } : stopped(endedBy ?? 'cancelled', false));
          return;
        }
        logger.error('provider worker crashed', { plugin: extension.id, method, error: error.message });
        const crash: ProviderCrash = { pluginId: extension.id, method, reason: logger.redactor.text(error.message) };
        for (const listener of this.options.crashListeners) listener(crash);
        // A process the host stopped for what it sent fails with that reason's code.
        if (SvcError.isInstance(error)) channel.fail({ code: error.code, message: logger.redactor.text(error.message) });
        else channel.fail({ code: 'worker_crashed', message: `the provider worker failed: ${logger.redactor.text(error.message)}` });
      },
    );

    let outcome = await channel.done;
    clearTimeout(deadline);
    clearTimeout(graceTimer);
    options.signal?.removeEventListener('abort', onAbort);
    if (abandon && channel.threadId !== undefined) this.options.pools.abandonThread(entry, channel.threadId, channel);
    // The host owns lifecycles: nothing a call started outlives it.
    await channel.killProcesses(endedBy ?? 'cancelled');
    const release = () => {
      channel.close();
      entry.active.delete(channel);
    };
    if (taskSettled || abandon) release();
    else void this.options.pools.watchRelease(entry, channel, taskDone).finally(release);
    if (endedBy === 'timeout' && (outcome.ok || outcome.error.code !== 'timeout')) {
      outcome = { ok: false, error: stopped('timeout', abandon) };
    } else if (endedBy === 'cancelled' && method !== 'stream' && outcome.ok) {
      outcome = { ok: false, error: stopped('cancelled', false) };
    }
    const failure = outcome.ok ? reportedFailure(method, outcome.value, streamFailure, endedBy) : outcome.error;
    // The host starts the session's CLI from this description: that start is the provider's use of
    // process:spawn, as a Host Context spawn is, and the CLI it starts uses the provider's network.
    if (stats && method === 'buildSessionProcess' && !failure && extension.granted.has('process:spawn')) {
      stats.permissionUsed(extension.id, 'process:spawn');
      if (extension.granted.has('network:provider')) stats.permissionUsed(extension.id, 'network:provider');
    }
    stats?.call({
      id: extension.id,
      method,
      ms: performance.now() - startedAt,
      ...(failure ? { code: failure.code, message: logger.redactor.text(failure.message) } : {}),
    });
    return outcome;
  }
}

/**
 * How a call that returned still failed, for the statistics: a stream cancelled by its caller (it
 * ends with `finish cancelled`, no throw), a stream that ended in an error event, or a `generate()`
 * result with an error.
 */
function reportedFailure(method: AdapterMethodName, value: unknown, streamFailure: SvcErrorData | undefined, endedBy: 'cancelled' | 'timeout' | undefined): SvcErrorData | undefined {
  if (endedBy === 'cancelled') return { code: 'cancelled', message: 'the call was cancelled' };
  if (method === 'stream') return streamFailure;
  if (method !== 'generate' || typeof value !== 'object' || value === null) return undefined;
  const { error } = value as { error?: { code?: unknown; message?: unknown } };
  return typeof error?.code === 'string' ? { code: error.code, message: typeof error.message === 'string' ? error.message : '' } : undefined;
}
