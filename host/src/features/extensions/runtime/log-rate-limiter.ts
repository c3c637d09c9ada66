// A token bucket per extension: a provider that logs in a loop cannot flood the host log. Dropped
// records are counted and reported once the provider may log again.
export class LogRateLimiter {
  private tokens: number;
  private last: number;
  private dropped = 0;

  constructor(private readonly perSecond: number, private readonly burst: number, private readonly now: () => number = Date.now) {
    this.tokens = burst;
    this.last = now();
  }

  /** Whether one more record may be written; `droppedBefore` says how many were dropped since the last one that was. */
  take(): { allowed: boolean; droppedBefore: number } {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) {
      this.dropped += 1;
      return { allowed: false, droppedBefore: 0 };
    }
    this.tokens -= 1;
    const droppedBefore = this.dropped;
    this.dropped = 0;
    return { allowed: true, droppedBefore };
  }
}
