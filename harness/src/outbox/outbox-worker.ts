import { randomUUID } from 'node:crypto';
import type { Logger } from '@svc-org/host/platform/logging';
import type { ChannelStore, GatewayClient, GatewayStore, SendOutcome } from '../gateways/index.js';
import type { OutboxEntry } from './outbox-entry.js';
import type { OutboxStore, RecordedOutcome } from './outbox-store.js';

export const WORKER_STATES = ['created', 'active', 'stopping', 'stopped'] as const;
export type WorkerState = (typeof WORKER_STATES)[number];

export interface OutboxWorkerOptions {
  store: OutboxStore;
  gateways: GatewayStore;
  channels: ChannelStore;
  logger: Logger;
  clientFor(gatewayId: number): GatewayClient;
  /** Called after a delivery parked a task (hold its terminal's keepalive). */
  onParked?(taskId: number): void;
  /** Longest sleep between looks at the table when nothing is due (default 5 s). */
  pollMs?: number;
  /** Lease of a claimed row; longer than any send may take (default 120 s). */
  leaseMs?: number;
  /** Entries sent at the same time (default 4). */
  concurrency?: number;
}

/**
 * The one background timer of `svc serve` that sends due outbox entries: at start (after turning
 * rows abandoned by a dead sender into SENT_UNVERIFIED), at each entry's `nextAttemptAt`, and
 * early on `notify()`.
 */
export class OutboxWorker {
  readonly owner = `${process.pid}/${randomUUID()}`;
  private currentState: WorkerState = 'created';
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private readonly controller = new AbortController();
  private consecutiveErrors = 0;

  constructor(private readonly options: OutboxWorkerOptions) {}

  get state(): WorkerState {
    return this.currentState;
  }

  start(): void {
    if (this.currentState !== 'created') return;
    this.currentState = 'active';
    this.loop = this.run();
  }

  /** Something was enqueued: look now instead of at the next poll. */
  notify(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    if (this.currentState === 'stopped') return;
    this.currentState = 'stopping';
    this.controller.abort();
    this.wake?.();
    await this.loop;
    this.currentState = 'stopped';
  }

  /** Sends everything due now; resolves with how many entries were attempted. */
  async drain(): Promise<number> {
    let attempted = 0;
    const lanes = Array.from({ length: this.options.concurrency ?? 4 }, async () => {
      for (;;) {
        if (this.controller.signal.aborted) return;
        const entry = this.options.store.claim(this.owner, this.options.leaseMs ?? 120_000);
        if (!entry) return;
        attempted += 1;
        await this.deliver(entry);
      }
    });
    await Promise.all(lanes);
    return attempted;
  }

  recoverAbandoned(): number {
    const recovered = this.options.store.recoverAbandoned((owner) => owner === this.owner || isProcessAlive(owner));
    if (recovered > 0) this.options.logger.warn('outbox entries left mid-send by a stopped sender are now SENT_UNVERIFIED', { count: recovered });
    return recovered;
  }

  private async run(): Promise<void> {
    const pollMs = this.options.pollMs ?? 5_000;
    while (this.currentState === 'active') {
      try {
        this.recoverAbandoned();
        await this.drain();
        this.consecutiveErrors = 0;
      } catch (error) {
        this.consecutiveErrors += 1;
        this.options.logger.error('outbox pass failed', { error: String(error), consecutive: this.consecutiveErrors });
      }
      if (this.currentState !== 'active') break;
      const due = this.options.store.nextDueAt();
      const backoff = this.consecutiveErrors > 0 ? Math.min(60_000, 1000 * 2 ** this.consecutiveErrors) : 0;
      const sleep = Math.max(backoff, Math.min(pollMs, due === undefined ? pollMs : Math.max(0, due - Date.now())));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, sleep);
        timer.unref?.();
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  private async deliver(entry: OutboxEntry): Promise<RecordedOutcome> {
    const { logger, channels, store } = this.options;
    let outcome: SendOutcome;
    let where = { platform: null as string | null, chatId: entry.to, threadId: entry.threadId };
    try {
      if (entry.gatewayId === null || entry.channelId === null || entry.to === null) {
        outcome = { kind: 'refused', code: 'channel_removed', message: 'the channel or gateway of this message was removed' };
      } else {
        const channel = channels.get(entry.channelId);
        where = { ...where, platform: channel.platform };
        const client = this.options.clientFor(entry.gatewayId);
        outcome = await client.send(
          { idempotencyKey: entry.id, platform: channel.platform, to: entry.to, threadId: entry.threadId, replyToId: entry.replyToId, text: entry.body },
          this.controller.signal,
        );
      }
    } catch (error) {
      // A failure of our own before the gateway was asked: nothing left, try again later.
      const code = (error as { code?: unknown }).code;
      outcome = code === 'channel_not_found' || code === 'gateway_not_found'
        ? { kind: 'refused', code: String(code), message: (error as Error).message }
        : { kind: 'retry', code: 'send_setup_failed', message: (error as Error).message };
    }
    const recorded = store.record(entry, outcome, where);
    logger.info('outbox send', {
      outboxId: entry.id,
      messageId: entry.messageId,
      ...(entry.gatewayId !== null ? { gatewayId: entry.gatewayId } : {}),
      attempt: entry.attempts,
      result: recorded.state,
      ...(outcome.kind === 'sent' ? { platformMessageId: outcome.platformMessageId } : { code: outcome.code, reason: outcome.message }),
    });
    if (recorded.parkedTaskId !== undefined) this.options.onParked?.(recorded.parkedTaskId);
    return recorded;
  }
}

/** Owners are `<pid>/<uuid>`; a pid that no longer runs cannot still be sending. */
function isProcessAlive(owner: string): boolean {
  const pid = Number(owner.split('/')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
