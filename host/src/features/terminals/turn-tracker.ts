import { SvcError } from '@svc-org/ai-sdk';

// Bracketed paste switched on (`\x1b[?2004h`) or off (`\x1b[?2004l`): this, then `h` or `l`.
const PASTE_SWITCH = Buffer.from('\x1b[?2004');
const H = 0x68;
const L = 0x6c;
// The bytes a sequence may have in the previous chunk when it spans two.
const SEAM = PASTE_SWITCH.length;

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

  /**
   * Scans terminal output for the bracketed-paste switch (a sequence may span two chunks). The
   * chunk is not kept: its caller may reuse it.
   */
  observeOutput(chunk: Buffer): void {
    this.lastOutputAt = Date.now();
    // A switch inside the chunk is the latest; else one that starts in the previous chunk's tail.
    let switched = lastPasteSwitch(chunk);
    if (switched === undefined && this.tail.length > 0) switched = lastPasteSwitch(Buffer.concat([this.tail, chunk.subarray(0, SEAM)]));
    if (switched !== undefined) this.pasteOn = switched;
    this.tail = chunk.length >= SEAM ? Buffer.from(chunk.subarray(chunk.length - SEAM)) : Buffer.concat([this.tail, chunk]).subarray(-SEAM);
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

/** Whether the last complete bracketed-paste switch in `data` turns it on or off; undefined when there is none. */
function lastPasteSwitch(data: Buffer): boolean | undefined {
  for (let at = data.lastIndexOf(PASTE_SWITCH); at !== -1; at = at > 0 ? data.lastIndexOf(PASTE_SWITCH, at - 1) : -1) {
    const mode = data[at + PASTE_SWITCH.length];
    if (mode === H) return true;
    if (mode === L) return false;
  }
  return undefined;
}
