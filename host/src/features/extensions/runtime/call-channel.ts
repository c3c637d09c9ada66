// The host's end of one adapter call: parses each Host Context request at the edge, checks its
// permission before acting, runs it, and relays process output and stream events with flow control.
import type { MessagePort } from 'node:worker_threads';
import type { CliStreamEvent, HostContextShape, HostMessage, HostMethodName, HostMethodPermission, SvcErrorData, WorkerMessage } from '@svc-org/ai-sdk';
import { CliStreamEventSchema, HostMethods, PermissionDeniedError, STREAM_EVENT_WINDOW, SvcError } from '@svc-org/ai-sdk';
import type { Logger } from '../../../platform/logging/index.js';
import type { KillReason } from '../../../platform/processes/process-supervisor.js';
import { callFileMethods } from './call-file-methods.js';
import { CallProcesses } from './call-processes.js';
import { eventSize } from './event-size.js';
import { checkMessageBounds } from './message-bounds.js';
import type { IntegrationFileGuard } from './integration-file-guard.js';
import type { LogRateLimiter } from './log-rate-limiter.js';
import type { PluginStorageStore } from './plugin-storage-store.js';

export interface CallChannelOptions {
  pluginId: string;
  granted: ReadonlySet<string>;
  /** Set for mcp/hooks/skills calls: the files API is open only then. */
  integrationCall: boolean;
  /** The files an integration call may touch (see integration-file-guard.ts); none without it. */
  integrationFiles?: IntegrationFileGuard;
  storage: PluginStorageStore;
  logger: Logger;
  hostEnv: NodeJS.ProcessEnv;
  connectionEnv?: Record<string, string>;
  loadConfig: () => Promise<Record<string, unknown>>;
  /** The call's own deadline caps any process timeout a plugin asks for. */
  maxProcessTimeoutMs?: number;
  /** Validated, redacted events with their sizes (see eventSize), in order. */
  onEvents?: (events: CliStreamEvent[], sizes: number[]) => void;
  /** Observability for tests and the bench: every spawn the host performed. */
  onSpawn?: (pid: number, command: string) => void;
  /** What the worker reported of itself after the call (statistics). */
  onStats?: (stats: { heap: number; rss: number; load?: number }) => void;
  /** A Host Context call passed the gate of a granted permission (statistics). */
  onPermissionUse?: (permission: string, method: string) => void;
  /** The worker started running the call, on thread `threadId`. */
  onStart?: (threadId: number) => void;
  eventWindowBytes: number;
  maxEventBytes: number;
  /** Shared by every call of one extension. */
  logLimiter: LogRateLimiter;
  maxLogMessageChars: number;
  /** Set when messages arrive unchecked (a worker thread's port): each is measured before it is read. */
  messageBounds?: { maxBytes: number; maxDepth: number };
  /** What one provider may keep in its storage, in bytes. */
  storageQuotaBytes: number;
  /** The provider broke the protocol (a message out of bounds or out of shape): it is stopped as a crash. */
  onProtocolFault?: (error: SvcErrorData) => void;
}

export type CallOutcome = { ok: true; value: unknown } | { ok: false; error: SvcErrorData };

type AcceptedEvent = { event: CliStreamEvent } | { held: true } | { fault: { code: string; message: string } };

export class CallChannel {
  readonly done: Promise<CallOutcome>;
  private settle!: (outcome: CallOutcome) => void;
  private settledFlag = false;
  /** The worker thread running the call; undefined while the call waits in the queue. */
  threadId: number | undefined;
  /** Resolves with the thread id once the worker starts the call. */
  readonly started: Promise<number>;
  private markStarted!: (threadId: number) => void;
  private outstandingEvents = 0;
  private outstandingBytes = 0;
  private readonly processes: CallProcesses;
  private readonly methods: HostContextShape;
  /**
   * Text held back per stream (text, reasoning): its end could begin a secret that the next event
   * completes, so it goes out with that event, or alone before the next other event or the end.
   */
  private readonly heldText = new Map<'text' | 'reasoning', string>();
  /** Events the host added (held text sent alone) that the consumer has not yet given credit for. */
  private extraEvents = 0;
  private extraBytes = 0;

  constructor(private readonly port: MessagePort, private readonly options: CallChannelOptions) {
    this.done = new Promise((resolve) => (this.settle = resolve));
    this.started = new Promise((resolve) => (this.markStarted = resolve));
    this.processes = new CallProcesses({
      logger: options.logger,
      hostEnv: options.hostEnv,
      connectionEnv: options.connectionEnv,
      maxProcessTimeoutMs: options.maxProcessTimeoutMs,
      onSpawn: options.onSpawn,
      send: (message) => this.send(message),
    });
    this.methods = this.createMethods();
    port.on('message', (message: unknown) => this.receiveUnchecked(message));
    // A message the host cannot deserialize (nested too deep for its stack, say) is a fault, not a crash of the host.
    port.on('messageerror', (error: Error) => this.protocolFault('ipc_message_malformed', `the provider sent a message the host cannot read (${error.message})`));
    this.send({ t: 'credit', n: STREAM_EVENT_WINDOW, b: options.eventWindowBytes });
  }

  get settled(): boolean {
    return this.settledFlag;
  }

  /** The consumer read `events` events of `bytes` total size: the worker may send that much more. */
  grantCredit(events: number, bytes: number): void {
    this.outstandingEvents -= events;
    this.outstandingBytes -= bytes;
    // The worker did not spend credit on the events the host added: it gets none back for them.
    const repaidEvents = Math.min(events, this.extraEvents);
    const repaidBytes = Math.min(bytes, this.extraBytes);
    this.extraEvents -= repaidEvents;
    this.extraBytes -= repaidBytes;
    if (events > repaidEvents || bytes > repaidBytes) this.send({ t: 'credit', n: events - repaidEvents, b: bytes - repaidBytes });
  }

  cancel(reason: 'cancelled' | 'timeout' | 'unloaded'): void {
    this.send({ t: 'cancel', reason });
  }

  /** Resolves the call from the host side (worker crashed, was terminated, or broke the protocol). */
  fail(error: SvcErrorData): void {
    this.finish({ ok: false, error });
  }

  /** Ends the call for a fault the host found in what the worker sent; the worker is told to stop. */
  private reject(code: string, message: string): void {
    if (this.settledFlag) return;
    this.cancel('cancelled');
    this.fail({ code, message: this.options.logger.redactor.text(message) });
  }

  async killProcesses(reason: KillReason): Promise<void> {
    await this.processes.stopAll(reason);
  }

  close(): void {
    this.port.close();
  }

  private finish(outcome: CallOutcome): void {
    if (this.settledFlag) return;
    this.settledFlag = true;
    this.settle(outcome);
  }

  private send(message: HostMessage): void {
    try {
      this.port.postMessage(message);
    } catch {
      // the port is closed: the call is over
    }
  }

  private receiveUnchecked(message: unknown): void {
    const bounds = this.options.messageBounds;
    const fault = bounds ? checkMessageBounds(message, bounds.maxDepth, bounds.maxBytes) : undefined;
    if (fault) return this.protocolFault(fault.code, fault.message);
    if (!isWorkerMessage(message)) return this.protocolFault('ipc_message_malformed', 'the provider sent a message that is not part of the protocol');
    try {
      this.receive(message);
    } catch (error) {
      this.protocolFault('ipc_message_malformed', `the provider sent a message the host cannot use (${(error as Error).message})`);
    }
  }

  private protocolFault(code: string, message: string): void {
    if (this.settledFlag) return;
    const error = { code, message: `${this.options.logger.redactor.text(message)}; the provider was stopped` };
    if (this.options.onProtocolFault) this.options.onProtocolFault(error);
    else this.reject(code, message);
  }

  private receive(message: WorkerMessage): void {
    switch (message.t) {
      case 'hi':
        this.threadId = message.tid;
        this.markStarted(message.tid);
        this.options.onStart?.(message.tid);
        return;
      case 'req':
        void this.serve(message.id, message.m, message.a);
        return;
      case 'evs':
        this.receiveEvents(message.e);
        return;
      case 'st':
        // Numbers from the provider's side, for statistics only: anything else is ignored.
        if (Number.isFinite(message.heap) && Number.isFinite(message.rss)) {
          this.options.onStats?.({ heap: message.heap, rss: message.rss, ...(Number.isFinite(message.load) ? { load: message.load } : {}) });
        }
        return;
      case 'done':
        if (!this.settledFlag) this.flushHeldText();
        this.finish(message.ok ? { ok: true, value: message.v } : { ok: false, error: message.e });
        return;
    }
  }

  /** The host's edge for stream events: each is sized, checked against the SDK's schema and redacted. */
  private receiveEvents(batch: unknown[]): void {
    if (this.settledFlag || !Array.isArray(batch)) return;
    const events: CliStreamEvent[] = [];
    const sizes: number[] = [];
    // The events before a faulty one are delivered, then the call ends with the fault.
    const deliver = () => {
      if (events.length > 0) this.options.onEvents?.(events, sizes);
    };
    for (const raw of batch) {
      const size = eventSize(raw);
      const accepted = this.acceptEvent(raw, size, events, sizes);
      if ('fault' in accepted) {
        deliver();
        this.reject(accepted.fault.code, accepted.fault.message);
        return;
      }
      if ('held' in accepted) continue;
      events.push(accepted.event);
      sizes.push(size);
      this.outstandingEvents += 1;
      this.outstandingBytes += size;
    }
    if (this.outstandingBytes - this.extraBytes > this.options.eventWindowBytes || this.outstandingEvents - this.extraEvents > STREAM_EVENT_WINDOW) {
      this.reject('event_window_exceeded', 'the provider worker sent more stream events than the host granted');
      return;
    }
    deliver();
  }

  /** One event of a batch: redacted, held back whole, or a fault; held text it releases goes first into `events`. */
  private acceptEvent(raw: unknown, size: number, events: CliStreamEvent[], sizes: number[]): AcceptedEvent {
    const { maxEventBytes, logger } = this.options;
    if (!(size <= maxEventBytes)) {
      const measured = Number.isFinite(size) ? size : 'unmeasurable';
      return { fault: { code: 'event_too_large', message: `the provider emitted a stream event of ${measured} size units; the bound is ${maxEventBytes} (runtime.maxEventBytes)` } };
    }
    if (isPlainTextEvent(raw)) return this.acceptText(raw, size);
    this.takeHeldText(events, sizes);
    const parsed = CliStreamEventSchema.safeParse(raw);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ');
      return { fault: { code: 'invalid_event', message: `the provider emitted a malformed stream event: ${issues}` } };
    }
    return { event: logger.redactor.content(parsed.data) as CliStreamEvent };
  }

  /**
   * The hottest shapes, exactly as the schema accepts them, without the general parse. A secret may
   * be split across two events: what could begin one waits for the next.
   */
  private acceptText(raw: { type: 'text' | 'reasoning'; text: string }, size: number): AcceptedEvent {
    const { redactor } = this.options.logger;
    const text = (this.heldText.get(raw.type) ?? '') + raw.text;
    const cut = redactor.streamCut(text);
    if (cut < text.length) this.heldText.set(raw.type, text.slice(cut));
    else this.heldText.delete(raw.type);
    if (cut === 0) {
      // All of it waits: the worker's credit for this event comes back at once.
      this.send({ t: 'credit', n: 1, b: size });
      return { held: true };
    }
    return { event: { type: raw.type, text: redactor.text(text.slice(0, cut)) } };
  }

  /** Appends the held text, each stream's as one event the host adds (see grantCredit). */
  private takeHeldText(events: CliStreamEvent[], sizes: number[]): void {
    for (const [type, text] of this.heldText) {
      const event: CliStreamEvent = { type, text: this.options.logger.redactor.text(text) };
      const size = eventSize(event);
      events.push(event);
      sizes.push(size);
      this.outstandingEvents += 1;
      this.outstandingBytes += size;
      this.extraEvents += 1;
      this.extraBytes += size;
    }
    this.heldText.clear();
  }

  /** At the end of the call, what was held back goes out (it began no secret after all). */
  private flushHeldText(): void {
    if (this.heldText.size === 0) return;
    const events: CliStreamEvent[] = [];
    const sizes: number[] = [];
    this.takeHeldText(events, sizes);
    this.options.onEvents?.(events, sizes);
  }

  private async serve(id: number, method: HostMethodName, args: unknown): Promise<void> {
    try {
      // The call has its outcome (cancelled, timed out, refused): the provider may act no more.
      if (this.settledFlag) throw new SvcError({ code: 'cancelled', message: 'the call is over' });
      const declaration = HostMethods[method];
      if (!declaration) throw new SvcError({ code: 'invalid_request', message: `unknown Host Context method ${String(method)}` });
      this.checkPermission(declaration.permission, method);
      const parsed = declaration.args.safeParse(args);
      if (!parsed.success) {
        throw new SvcError({
          code: 'invalid_request',
          message: `${method}: invalid arguments: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`,
        });
      }
      const implementation = this.methods[method] as (...a: unknown[]) => unknown;
      const result = implementation(...(parsed.data as unknown[]));
      // A method that answers at once replies in the same turn (no extra microtask hop).
      const value = result instanceof Promise ? await result : result;
      if (id !== 0) this.send({ t: 'res', id, ok: true, v: value });
    } catch (error) {
      const data = SvcError.isInstance(error)
        ? error.toJSON()
        : { code: 'host_error', message: error instanceof Error ? error.message : String(error) };
      const redacted = { ...data, message: this.options.logger.redactor.text(data.message) };
      if (id !== 0) this.send({ t: 'res', id, ok: false, e: redacted });
      else this.options.logger.warn('host context notification failed', { method, code: data.code });
    }
  }

  private checkPermission(permission: HostMethodPermission, method: string): void {
    if (permission === null) return;
    if (permission === 'integration') {
      if (!this.options.integrationCall) {
        throw new SvcError({
          code: 'permission_denied',
          message: `${method} is available only inside an integration call (mcp, hooks, skills)`,
          pluginId: this.options.pluginId,
        });
      }
      return;
    }
    if (!this.options.granted.has(permission)) {
      this.options.logger.warn('permission denied', { method, permission });
      throw new PermissionDeniedError(permission, method, this.options.pluginId);
    }
    this.options.onPermissionUse?.(permission, method);
  }

  private createMethods(): HostContextShape {
    const { storage, pluginId } = this.options;
    return {
      ...this.processes.methods(),
      '$storage.get': (key) => storage.get(pluginId, key),
      '$storage.set': (key, value) => storage.set(pluginId, key, value, this.options.storageQuotaBytes),
      '$storage.delete': (key) => storage.delete(pluginId, key),
      '$storage.keys': (prefix) => storage.keys(pluginId, prefix),
      '$log': (level, message, fields) => this.log(level, message, fields),
      '$config.get': () => this.options.loadConfig(),
      ...callFileMethods(pluginId, this.options.integrationFiles),
    };
  }

  /**
   * A provider's fields live under `fields`: it cannot forge the record's time, level, message or
   * plugin. The rate is limited per extension.
   */
  private log(...[level, message, fields]: Parameters<HostContextShape['$log']>): void {
    const { logger, pluginId } = this.options;
    const { allowed, droppedBefore } = this.options.logLimiter.take();
    if (!allowed) return;
    if (droppedBefore > 0) logger.warn('provider log records dropped (rate limit)', { plugin: pluginId, dropped: droppedBefore });
    const max = this.options.maxLogMessageChars;
    const text = message.length > max ? `${message.slice(0, max)}… [${message.length - max} more characters cut]` : message;
    logger[level](text, { plugin: pluginId, ...(fields === undefined ? {} : { fields }) });
  }
}

/** `{ type: 'text' | 'reasoning', text: string }` and nothing else. */
function isPlainTextEvent(raw: unknown): raw is { type: 'text' | 'reasoning'; text: string } {
  if (typeof raw !== 'object' || raw === null) return false;
  const record = raw as { type?: unknown; text?: unknown };
  if ((record.type !== 'text' && record.type !== 'reasoning') || typeof record.text !== 'string') return false;
  let keys = 0;
  for (const key in record) if (Object.hasOwn(record, key)) keys++;
  return keys === 2;
}

function isWorkerMessage(value: unknown): value is WorkerMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  switch (message.t) {
    case 'hi':
      return Number.isSafeInteger(message.tid);
    case 'req':
      return Number.isSafeInteger(message.id) && typeof message.m === 'string' && Array.isArray(message.a);
    case 'evs':
      return Array.isArray(message.e);
    case 'done':
      return message.ok === true || (message.ok === false && isErrorData(message.e));
    case 'st':
      return Number.isFinite(message.heap) && Number.isFinite(message.rss) && (message.load === undefined || Number.isFinite(message.load));
    default:
      return false;
  }
}

function isErrorData(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as SvcErrorData).code === 'string' && typeof (value as SvcErrorData).message === 'string';
}
