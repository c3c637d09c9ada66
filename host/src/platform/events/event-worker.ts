import type { DomainEvent } from './domain-event.js';
import type { EventCrashPoint } from './event-crash-point.js';
import type { EventStore } from './event-store.js';

export type EventWorkerState = 'created' | 'active' | 'stopping' | 'stopped';

export interface EventWorkerOptions {
  store: EventStore;
  /** Handles one event; a throw schedules a retry with back-off. Should be idempotent: after a
   *  kill, an event whose handling had begun is handled again once its lease expires. */
  handle(event: DomainEvent, signal: AbortSignal): Promise<void>;
  owner: string;
  /** Wait between polls when there was nothing to do. */
  pollMs?: number;
  leaseMs?: number;
  batch?: number;
  /** Retries of one event before it is marked `failed`. */
  maxAttempts?: number;
  /** Upper bound of every back-off (consecutive poll errors, retries of one event). */
  maxBackoffMs?: number;
  onError?(error: unknown, event?: DomainEvent): void;
  /** How long a handled event is kept before it is pruned (default 7 days); checked at most hourly. */
  retainHandledMs?: number;
  now?: () => number;
  /** Crash-safety tests only (`createEventCrashHook`): called at each point a kill must be survivable. */
  crashAt?: (point: EventCrashPoint) => void;
}

/**
 * One small polling loop over the durable events. `notify()` wakes it at once (a writer in this
 * process just appended); `stop()` ends it and resolves once the loop has returned. Consecutive
 * errors of the loop itself (a locked or closed database) stretch the wait, up to `maxBackoffMs`.
 */
export class EventWorker {
  private current: EventWorkerState = 'created';
  private loop?: Promise<void>;
  private wake?: () => void;
  private readonly stopping = new AbortController();
  private consecutiveErrors = 0;
  private notified = false;
  private lastPruneAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: EventWorkerOptions) {}

  get state(): EventWorkerState {
    return this.current;
  }

  start(): void {
    if (this.current !== 'created') throw new Error(`event worker cannot start from state ${this.current}`);
    this.current = 'active';
    this.loop = this.run();
  }

  /** Something was appended: poll now instead of at the end of the current wait. */
  notify(): void {
    this.notified = true;
    this.wake?.();
  }

  async stop(): Promise<void> {
    if (this.current === 'created') {
      this.current = 'stopped';
      return;
    }
    if (this.current === 'active') {
      this.current = 'stopping';
      this.stopping.abort();
      this.wake?.();
    }
    await this.loop;
    this.current = 'stopped';
  }

  private async run(): Promise<void> {
    const { pollMs = 500, maxBackoffMs = 30_000 } = this.options;
    while (this.current === 'active') {
      let worked = false;
      try {
        this.pruneWhenDue();
        worked = await this.once();
        this.consecutiveErrors = 0;
      } catch (error) {
        this.consecutiveErrors += 1;
        this.options.onError?.(error);
      }
      if (this.current !== 'active') break;
      if (worked) continue;
      const wait = this.consecutiveErrors === 0 ? pollMs : Math.min(maxBackoffMs, pollMs * 2 ** Math.min(this.consecutiveErrors, 16));
      await this.delay(wait);
    }
  }

  private pruneWhenDue(): void {
    const { store, retainHandledMs = 7 * 24 * 3_600_000, now = Date.now } = this.options;
    const at = now();
    if (at - this.lastPruneAt < 3_600_000) return;
    this.lastPruneAt = at;
    store.pruneHandled(at - retainHandledMs);
  }

  /** Claims one batch and handles it; `true` when there was something to do. */
  private async once(): Promise<boolean> {
    const { store, owner, leaseMs = 30_000, batch = 20, maxAttempts = 10, maxBackoffMs = 30_000, now = Date.now } = this.options;
    const claimed = store.claim({ owner, leaseMs, limit: batch });
    if (claimed.length > 0) this.options.crashAt?.('event:claimed');
    for (const event of claimed) {
      if (this.current !== 'active') break;
      try {
        await this.options.handle(event, this.stopping.signal);
        this.options.crashAt?.('event:handled');
        store.complete(event.id, owner);
      } catch (error) {
        this.options.onError?.(error, event);
        const backoff = Math.min(maxBackoffMs, 1000 * 2 ** Math.min(event.attempts - 1, 16));
        store.fail(event.id, owner, error instanceof Error ? error.message : String(error), now() + backoff, maxAttempts);
      }
    }
    return claimed.length > 0;
  }

  /** Waits `ms`, or less when notified or stopped. */
  private delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.notified || this.current !== 'active') {
        this.notified = false;
        resolve();
        return;
      }
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        this.notified = false;
        done();
      };
    });
  }
}
