// Loads enabled providers on demand into worker threads (one piscina pool per extension) and runs
// adapter calls there, several at once per thread. The host owns every call's deadline,
// cancellation and child processes; a worker that throws, exits, leaks a rejection, loops forever
// or blocks in a native call costs only the calls on its thread.
import type {
  AdapterMethodArgs,
  AdapterMethodName,
  AdapterMethodResult,
  CliStreamEvent,
  PlatformInfo,
  QueryRequest,
  SvcErrorData,
} from '@svc-org/ai-sdk';
import { AdapterMethods, EVENT_BATCH_SIZE, SvcError, adapterCall } from '@svc-org/ai-sdk';
import type { Logger } from '../../../platform/logging/index.js';
import type { CallChannel } from './call-channel.js';
import { CallExecutor } from './call-executor.js';
import { errorEvent } from './error-event.js';
import { EventQueue } from './event-queue.js';
import type { PluginStorageStore } from './plugin-storage-store.js';
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
  private readonly executor: CallExecutor;
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
      svcHome: options.svcHome,
    });
    this.executor = new CallExecutor({
      pools: this.pools,
      limits: this.limits,
      storage: options.storage,
      logger: options.logger,
      platform: options.platform,
      hostEnv: this.hostEnv,
      svcHome: options.svcHome,
      stats: options.stats,
      crashListeners: this.crashListeners,
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
    const outcome = await this.executor.execute(extension, adapterCall(method, args), options);
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
    void this.executor.execute(extension, { method: 'stream', args: [request] }, { ...options, signal }, (events, sizes) => {
      for (const event of events) {
        if (event.type === 'finish') sawFinish = true;
        if (event.type === 'error') sawError = true;
      }
      queue.push(events, sizes);
    }, (created) => (channel = created)).then((outcome) => {
      if (!outcome.ok) {
        const error = this.redactError(outcome.error);
        const cancelled = error.code === 'cancelled';
        if (!sawError) queue.push([errorEvent(error)]);
        if (!sawFinish) queue.push([{ type: 'finish', finishReason: cancelled ? 'cancelled' : 'error' }]);
      }
      queue.end();
    });
    return queue;
  }

  /**
   * Starts a worker thread for the extension ahead of its first call, so the thread's start overlaps
   * the caller's preflight (see ProviderPools.warm); a hardened provider starts at its call. With
   * `untilUp` false (a call about to follow), settles once the pool is made, not once its thread is up.
   */
  warm(id: string, isolation: LoadableExtension['isolation'], untilUp = true): Promise<void> {
    if (isolation === 'process') return Promise.resolve();
    // Settles once the thread is up (or could not start: logged, and the call starts its own).
    return this.pools.warm(id, untilUp).catch((error: unknown) => this.options.logger.warn('provider worker not started ahead', { plugin: id, error: String(error) }));
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

  private redactError(error: SvcErrorData): SvcErrorData {
    return this.options.logger.redactor.content(error) as SvcErrorData;
  }
}
