// How one adapter call is stopped: its deadline (counted from the moment it runs), a cancel, and
// the grace period after which a worker that did not stop is abandoned.
import type { AdapterMethodName, SvcErrorData } from '@svc-org/ai-sdk';
import type { CallChannel, CallOutcome } from './call-channel.js';

export type StopReason = 'cancelled' | 'timeout';

export class CallStop {
  /** Why the host stopped the call, if it did. */
  endedBy: StopReason | undefined;
  /** The worker did not stop within the grace period: its thread is given up. */
  abandoned = false;
  private channel: CallChannel | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private graceTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly timeoutMs: number,
    private readonly graceMs: number,
  ) {}

  /** The channel this stops; set once, right after it is made. */
  bind(channel: CallChannel): void {
    this.channel = channel;
  }

  /** The call started running on a worker: its deadline starts now. */
  startDeadline(): void {
    if (!this.endedBy) this.deadline = setTimeout(() => this.stop('timeout'), this.timeoutMs);
  }

  stop(reason: StopReason): void {
    const channel = this.channel;
    if (!channel || this.endedBy || channel.settled) return;
    this.endedBy = reason;
    channel.cancel(reason);
    void channel.killProcesses(reason);
    if (channel.threadId === undefined) {
      // Still queued: nothing of the provider ran. The cancel waits in the port; the worker
      // drops the call when it reaches it.
      channel.fail(this.error(reason, false));
      return;
    }
    this.graceTimer = setTimeout(() => {
      this.abandoned = true;
      channel.fail(this.error(reason, true));
    }, this.graceMs);
  }

  /** The call has its outcome: no timer of it may fire any more. */
  clear(): void {
    clearTimeout(this.deadline);
    clearTimeout(this.graceTimer);
  }

  error(reason: StopReason, abandoned: boolean): SvcErrorData {
    const tail = abandoned ? `; its worker did not stop within ${this.graceMs} ms and was abandoned` : '';
    return reason === 'timeout'
      ? { code: 'timeout', message: `the call exceeded its ${this.timeoutMs} ms deadline${tail}` }
      : { code: 'cancelled', message: `the call was cancelled${tail}` };
  }

  /**
   * The outcome the caller sees: a call past its deadline failed with `timeout` whatever it
   * answered; a cancelled call other than a stream (which ends with `finish cancelled`) failed.
   */
  outcome(outcome: CallOutcome, method: AdapterMethodName): CallOutcome {
    if (this.endedBy === 'timeout' && (outcome.ok || outcome.error.code !== 'timeout')) return { ok: false, error: this.error('timeout', this.abandoned) };
    if (this.endedBy === 'cancelled' && method !== 'stream' && outcome.ok) return { ok: false, error: this.error('cancelled', false) };
    return outcome;
  }
}
