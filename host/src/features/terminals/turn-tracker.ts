import { SvcError } from '@svc-org/ai-sdk';

const PASTE_ON = Buffer.from('\x1b[?2004h');
const PASTE_OFF = Buffer.from('\x1b[?2004l');

export type TurnState = 'starting' | 'idle' | 'busy';

/** Which turn signals this CLI run reports (its hooks, when the provider could attach them). */
export interface TurnSignals {
  promptSubmit: boolean;
  stop: boolean;
}

/**
 * What a task terminal's CLI is doing, from two sources: its output (bracketed paste switched on
 * means the prompt is drawn and ready for a paste) and its hooks (a prompt was submitted; the turn
 * ended). A prompt-submit hook is how a submission is confirmed: the screen is never read for it.
 */
export class TurnTracker {
  private pasteOn = false;
  private tail: Buffer = Buffer.alloc(0);
  private state: TurnState = 'starting';
  private lastOutputAt = 0;
  private readonly readyWaiters = new Set<() => void>();
  private readonly submitWaiters = new Set<(turnId: string | undefined) => void>();

  constructor(readonly signals: TurnSignals) {}

  get turn(): TurnState {
    return this.state;
  }

  get bracketedPaste(): boolean {
    return this.pasteOn;
  }

  /** Scans terminal output for the bracketed-paste switch (a sequence may span two chunks). */
  observeOutput(chunk: Buffer): void {
    this.lastOutputAt = Date.now();
    const data = this.tail.length > 0 ? Buffer.concat([this.tail, chunk]) : chunk;
    const on = data.lastIndexOf(PASTE_ON);
    const off = data.lastIndexOf(PASTE_OFF);
    if (on !== -1 || off !== -1) this.pasteOn = on > off;
    this.tail = data.subarray(Math.max(0, data.length - (PASTE_ON.length - 1)));
    if (this.pasteOn && this.state === 'starting') this.state = 'idle';
    if (this.pasteOn) this.wake(this.readyWaiters);
  }

  /** The CLI's prompt-submit hook: a message went out (typed by svc or by a person attached). */
  promptSubmitted(turnId?: string): void {
    if (this.state !== 'starting') this.state = 'busy';
    for (const waiter of [...this.submitWaiters]) waiter(turnId);
    this.submitWaiters.clear();
  }

  /** The CLI's stop hook: the turn ended, the prompt takes the next message. */
  turnEnded(): void {
    this.state = this.pasteOn ? 'idle' : 'starting';
  }

  /** Resolves once bracketed paste is on; rejects with `terminal_not_ready` after `timeoutMs`. */
  async ready(timeoutMs: number, taskId: number): Promise<void> {
    if (this.pasteOn) return;
    await this.wait(this.readyWaiters, timeoutMs, () =>
      new SvcError({
        code: 'terminal_not_ready',
        message: `the CLI in task ${taskId}'s terminal did not show its prompt (bracketed paste) within ${timeoutMs} ms`,
        details: { taskId },
      }),
    );
  }

  /**
   * Resolves once the screen has been still for `quietMs` (at most `maxMs`): a CLI switches
   * bracketed paste on while it still draws, and an Enter typed then is dropped.
   */
  async settled(quietMs: number, maxMs: number): Promise<void> {
    const deadline = Date.now() + maxMs;
    for (;;) {
      const still = Date.now() - this.lastOutputAt;
      if (still >= quietMs || Date.now() >= deadline) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(quietMs - still, Math.max(1, deadline - Date.now()))));
    }
  }

  /** Resolves with the turn id (when the hook gave one) at the next prompt-submit report, or undefined at `timeoutMs`. */
  nextSubmit(timeoutMs: number): Promise<{ confirmed: boolean; turnId?: string }> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.submitWaiters.delete(done);
        resolve({ confirmed: false });
      }, timeoutMs);
      const done = (turnId: string | undefined) => {
        clearTimeout(timer);
        resolve({ confirmed: true, ...(turnId ? { turnId } : {}) });
      };
      this.submitWaiters.add(done);
    });
  }

  private wake(waiters: Set<() => void>): void {
    for (const waiter of [...waiters]) waiter();
    waiters.clear();
  }

  private wait(waiters: Set<() => void>, timeoutMs: number, timeoutError: () => Error): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(done);
        reject(timeoutError());
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      waiters.add(done);
    });
  }
}
