// Loads enabled providers on demand into worker threads (one piscina pool per extension) and runs
// adapter calls there, several at once per thread. The host owns every call's deadline,
// cancellation and child processes; a worker that throws, exits, leaks a rejection, loops forever
// or blocks in a native call costs only the calls on its thread.
import { MessageChannel } from 'node:worker_threads';
import type {
  AdapterCall,
  AdapterMethodArgs,
  AdapterMethodName,
  AdapterMethodResult,
  CliStreamEvent,
  PlatformInfo,
  QueryRequest,
  SvcErrorData,
} from '@svc-org/ai-sdk';
import { AdapterMethods, EVENT_BATCH_SIZE, SvcError, adapterCall, isIntegrationMethod } from '@svc-org/ai-sdk';
import type { Logger } from '../../logging/index.js';
import { CallChannel, type CallOutcome } from './call-channel.js';
import { EventQueue } from './event-queue.js';
import { IntegrationFileGuard, integrationCallScope } from './integration-file-guard.js';
import { LogRateLimiter } from './log-rate-limiter.js';
import type { PluginStorageStore } from './plugin-storage-store.js';
import type { WorkerTask } from './rpc-messages.js';
import { resolveRuntimeLimits, type RuntimeLimits, type RuntimeLimitsInput } from './runtime-options.js';
import { resolveWorkerFile } from './worker-file.js';
import type { CallOptions } from './call-options.js';
import type { LoadableExtension } from './loadable-extension.js';
import type { ProviderCrash } from './provider-crash.js';
import { ProviderPools } from './provider-pools.js';
import type { ProviderStatsRecorder } from '../stats/index.js';

export interface ExtensionRuntimeOptions {
  storage: PluginStorageStore;
  logger: Logger;
  platform: PlatformInfo;
  hostEnv?: NodeJS.ProcessEnv;
  limits?: RuntimeLimitsInput;
  workerFile?: string;
  /** The hardened bootstrap bundle (host/dist/provider-process.mjs). */
  processBootstrapFile?: string;
  /** The service's home: no integration file call reaches into it. */
  svcHome?: string;
  /** Counts calls, activations, memory and permission use (`svc ext stats`); none: nothing is counted. */
  stats?: ProviderStatsRecorder;
}

export class ExtensionRuntime {
  private readonly pools: ProviderPools;
  private readonly logLimiters = new Map<string, LogRateLimiter>();
  private readonly limits: RuntimeLimits;
  private readonly hostEnv: NodeJS.ProcessEnv;
  private readonly crashListeners = new Set<(crash: ProviderCrash) => void>();

  constructor(private readonly options: ExtensionRuntimeOptions) {
    this.limits = resolveRuntimeLimits(options.limits);
    this.hostEnv = options.hostEnv ?? process.env;
    this.pools = new ProviderPools({
      limits: this.limits,
      logger: options.logger,
      hostEnv: this.hostEnv,
      workerFile: options.workerFile ?? resolveWorkerFile(),
      processBootstrapFile: options.processBootstrapFile,
    });
  }

  /**
   * Runs one adapter call to completion; a failure is thrown as an SvcError with its code. The
   * answer is checked against the method's result schema (the SDK's protocol table): a provider
   * that answers a wrong shape fails the call with the table's code for it.
   */
  async call<M extends Exclude<AdapterMethodName, 'stream'>>(
    extension: LoadableExtension,
    method: M,
    args: AdapterMethodArgs<M>,
    options: CallOptions = {},
  ): Promise<AdapterMethodResult<M>> {
    const outcome = await this.execute(extension, adapterCall(method, args), options);
    if (!outcome.ok) throw new SvcError({ ...this.redactError(outcome.error), pluginId: extension.id });
    const value = this.checkResult(extension, method, outcome.value);
    // A session process description stays in the host: its envPatch may rightly carry the
    // connection's key to the CLI. Every other result leaves the host, redacted.
    if (method === 'buildSessionProcess') return value;
    return this.options.logger.redactor.content(value) as AdapterMethodResult<M>;
  }

  private checkResult<M extends AdapterMethodName>(extension: LoadableExtension, method: M, value: unknown): AdapterMethodResult<M> {
    const declaration = AdapterMethods[method];
    const parsed = declaration.result.safeParse(value);
    if (parsed.success) return parsed.data as AdapterMethodResult<M>;
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'} ${issue.message}`).join('; ');
    const message =
      method === 'buildSessionProcess' && typeof value === 'string'
        ? 'buildSessionProcess() returned a shell command string; it must return { command, args, cwd, envPatch }'
        : `${method}() returned an invalid result: ${problems}`;
    this.options.logger.warn('provider answered a wrong shape', { plugin: extension.id, method, code: declaration.invalidResultCode });
    throw new SvcError({ code: declaration.invalidResultCode, message: this.options.logger.redactor.text(message), pluginId: extension.id });
  }

  /**
   * Streams a query's events as they arrive. Never throws: a failure is an `error` event followed
   * by `finish`. Breaking out of the loop cancels the call and kills its processes.
   */
  stream(extension: LoadableExtension, request: QueryRequest, options: CallOptions = {}): AsyncIterable<CliStreamEvent> {
    const local = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, local.signal]) : local.signal;
    let channel: CallChannel | undefined;
    const queue = new EventQueue(
      (n, bytes) => channel?.grantCredit(n, bytes),
      EVENT_BATCH_SIZE,
      Math.max(1, Math.floor(this.limits.eventWindowBytes / 4)),
      () => local.abort(),
    );
    let sawFinish = false;
    let sawError = false;
    void this.execute(extension, { method: 'stream', args: [request] }, { ...options, signal }, (events, sizes) => {
      for (const event of events) {
        if (event.type === 'finish') sawFinish = true;
        if (event.type === 'error') sawError = true;
      }
      queue.push(events, sizes);
    }, (created) => (channel = created)).then((outcome) => {
      if (!outcome.ok) {
        const error = this.redactError(outcome.error);
        const cancelled = error.code === 'cancelled';
        if (!sawError) queue.push([{ type: 'error', code: error.code, message: error.message }]);
        if (!sawFinish) queue.push([{ type: 'finish', finishReason: cancelled ? 'cancelled' : 'error' }]);
      }
      queue.end();
    });
    return queue;
  }

  /** Stops an extension's threads (disable, update, uninstall): running calls are cancelled. */
  unload(id: string): Promise<void> {
    return this.pools.unload(id);
  }

  /** Stops every thread; bounded even when a provider is stuck in a native call. */
  close(): Promise<void> {
    return this.pools.close();
  }

  /** Tells `listener` of every call that crashed its worker or process (the crash-loop quarantine listens). */
  watchCrashes(listener: (crash: ProviderCrash) => void): void {
    this.crashListeners.add(listener);
  }

  /** The limits in effect (the crash-loop policy is applied by the extension service). */
  get limitsInEffect(): Readonly<RuntimeLimits> {
    return this.limits;
  }

  /** Number of live worker threads of an extension (0 when unloaded or idle-unloaded). */
  threadCount(id: string): number {
    return this.pools.threadCount(id);
  }

  private timeoutFor(method: AdapterMethodName): number {
    return this.limits.callTimeoutMs[AdapterMethods[method].timeout];
  }

  private logLimiterFor(id: string): LogRateLimiter {
    let limiter = this.logLimiters.get(id);
    if (!limiter) {
      limiter = new LogRateLimiter(this.limits.logRecordsPerSecond, this.limits.logBurst);
      this.logLimiters.set(id, limiter);
    }
    return limiter;
  }

  private redactError(error: SvcErrorData): SvcErrorData {
    return this.options.logger.redactor.content(error) as SvcErrorData;
  }

  private async execute(
    extension: LoadableExtension,
    call: AdapterCall,
    options: CallOptions,
    onEvents?: (events: CliStreamEvent[], sizes: number[]) => void,
    onChannel?: (channel: CallChannel) => void,
  ): Promise<CallOutcome> {
    const { method, args } = call;
    const entry = this.pools.poolFor(extension);
    const { logger, stats } = this.options;
    const startedAt = performance.now();
    const { port1, port2 } = new MessageChannel();
    const timeoutMs = options.timeoutMs ?? this.timeoutFor(method);
    let deadline: NodeJS.Timeout | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    let endedBy: 'cancelled' | 'timeout' | undefined;
    let abandon = false;

    const stopped = (reason: 'cancelled' | 'timeout', abandoned: boolean): SvcErrorData => {
      const tail = abandoned ? `; its worker did not stop within ${this.limits.cancelGraceMs} ms and was abandoned` : '';
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
      }, this.limits.cancelGraceMs);
    };

    const channel: CallChannel = new CallChannel(port1, {
      pluginId: extension.id,
      granted: extension.granted,
      integrationCall: isIntegrationMethod(method),
      integrationFiles: isIntegrationMethod(method)
        ? new IntegrationFileGuard({
            pluginId: extension.id,
            declared: extension.integrationFiles,
            scope: integrationCallScope(args),
            homeDir: this.options.platform.homeDir,
            svcHome: this.options.svcHome,
            readOnly: method.endsWith('.inspect'),
          })
        : undefined,
      storage: this.options.storage,
      logger: logger.child({ plugin: extension.id }),
      hostEnv: this.hostEnv,
      connectionEnv: options.connectionEnv,
      loadConfig: options.loadConfig ?? (async () => ({})),
      maxProcessTimeoutMs: timeoutMs,
      onEvents,
      onSpawn: options.onSpawn,
      // The deadline counts from the moment the call runs, not while it waits for a thread.
      onStart: () => {
        if (!endedBy) deadline = setTimeout(() => stop('timeout'), timeoutMs);
      },
      eventWindowBytes: this.limits.eventWindowBytes,
      maxEventBytes: this.limits.maxEventBytes,
      logLimiter: this.logLimiterFor(extension.id),
      maxLogMessageChars: this.limits.maxLogMessageChars,
      storageQuotaBytes: this.limits.storageQuotaBytes,
      // A hardened process's messages are measured as they come off its channel (process-pool.ts).
      messageBounds: extension.isolation === 'process' ? undefined : { maxBytes: this.limits.maxMessageBytes, maxDepth: this.limits.maxMessageDepth },
      onProtocolFault: (error) => {
        if (channel.settled) return;
        logger.error('provider broke the message protocol', { plugin: extension.id, method, code: error.code });
        for (const listener of this.crashListeners) listener({ pluginId: extension.id, method, reason: error.message });
        channel.fail(error);
        // Its thread or process may hold anything: it is stopped, like a call that would not stop.
        if (channel.threadId !== undefined) this.pools.abandonThread(entry, channel.threadId, channel);
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
      maxEventBytes: this.limits.maxEventBytes,
      maxMessageDepth: this.limits.maxMessageDepth,
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
        for (const listener of this.crashListeners) listener(crash);
        // A process the host stopped for what it sent fails with that reason's code.
        if (SvcError.isInstance(error)) channel.fail({ code: error.code, message: logger.redactor.text(error.message) });
        else channel.fail({ code: 'worker_crashed', message: `the provider worker failed: ${logger.redactor.text(error.message)}` });
      },
    );

    let outcome = await channel.done;
    clearTimeout(deadline);
    clearTimeout(graceTimer);
    options.signal?.removeEventListener('abort', onAbort);
    if (abandon && channel.threadId !== undefined) this.pools.abandonThread(entry, channel.threadId, channel);
    // The host owns lifecycles: nothing a call started outlives it.
    await channel.killProcesses(endedBy ?? 'cancelled');
    const release = () => {
      channel.close();
      entry.active.delete(channel);
    };
    if (taskSettled || abandon) release();
    else void this.pools.watchRelease(entry, channel, taskDone).finally(release);
    if (endedBy === 'timeout' && (outcome.ok || outcome.error.code !== 'timeout')) {
      outcome = { ok: false, error: stopped('timeout', abandon) };
    } else if (endedBy === 'cancelled' && method !== 'stream' && outcome.ok) {
      outcome = { ok: false, error: stopped('cancelled', false) };
    }
    stats?.call({
      id: extension.id,
      method,
      ms: performance.now() - startedAt,
      ...(outcome.ok ? {} : { code: outcome.error.code, message: logger.redactor.text(outcome.error.message) }),
    });
    return outcome;
  }
}
