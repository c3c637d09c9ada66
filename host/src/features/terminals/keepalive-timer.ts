export interface TimerClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const SYSTEM_CLOCK: TimerClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    // A waiting keepalive must not keep a finished process alive.
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * The disconnect keepalive of one terminal: counts down only while nobody is attached and the
 * execution is not parked. `hold` suspends and keeps the time left; `reset` gives back the full period.
 */
export class KeepaliveTimer {
  private remaining: number;
  private deadline: number | undefined;
  private handle: unknown;
  private expired = false;

  constructor(
    private readonly periodMs: number,
    private readonly onExpire: () => void,
    private readonly clock: TimerClock = SYSTEM_CLOCK,
  ) {
    this.remaining = periodMs;
  }

  get running(): boolean {
    return this.deadline !== undefined;
  }

  /** Time left before expiry (frozen while held). */
  get remainingMs(): number {
    return this.deadline === undefined ? this.remaining : Math.max(0, this.deadline - this.clock.now());
  }

  run(): void {
    if (this.deadline !== undefined || this.expired) return;
    this.deadline = this.clock.now() + this.remaining;
    this.handle = this.clock.setTimeout(() => {
      this.deadline = undefined;
      this.remaining = 0;
      this.expired = true;
      this.onExpire();
    }, this.remaining);
  }

  hold(): void {
    if (this.deadline === undefined) return;
    this.remaining = Math.max(0, this.deadline - this.clock.now());
    this.clock.clearTimeout(this.handle);
    this.deadline = undefined;
  }

  reset(): void {
    this.hold();
    if (!this.expired) this.remaining = this.periodMs;
  }

  dispose(): void {
    this.hold();
    this.expired = true;
  }
}
