import type { CliStreamEvent } from '@svc-org/ai-sdk';

/**
 * Events from the worker, pulled by the host's consumer; consumption grants the worker more credit,
 * counted in events and in size units, so a slow reader bounds what the host holds.
 */
export class EventQueue implements AsyncIterable<CliStreamEvent> {
  private readonly events: CliStreamEvent[] = [];
  private readonly sizes: number[] = [];
  private head = 0;
  private ended = false;
  private wake: (() => void) | undefined;
  private consumedSinceGrant = 0;
  private bytesSinceGrant = 0;

  constructor(
    private readonly grant: (events: number, bytes: number) => void,
    private readonly grantEvery: number,
    private readonly grantEveryBytes: number,
    private readonly onReturn: () => void,
  ) {}

  push(batch: CliStreamEvent[], sizes?: number[]): void {
    for (let i = 0; i < batch.length; i++) {
      this.events.push(batch[i]!);
      this.sizes.push(sizes?.[i] ?? 0);
    }
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  [Symbol.asyncIterator](): AsyncIterator<CliStreamEvent> {
    return {
      next: async () => {
        for (;;) {
          if (this.head < this.events.length) {
            const value = this.events[this.head]!;
            const size = this.sizes[this.head]!;
            this.head++;
            if (this.head > 4096) {
              this.events.splice(0, this.head);
              this.sizes.splice(0, this.head);
              this.head = 0;
            }
            this.bytesSinceGrant += size;
            if (++this.consumedSinceGrant >= this.grantEvery || this.bytesSinceGrant >= this.grantEveryBytes) {
              this.grant(this.consumedSinceGrant, this.bytesSinceGrant);
              this.consumedSinceGrant = 0;
              this.bytesSinceGrant = 0;
            }
            return { value, done: false };
          }
          if (this.ended) return { value: undefined, done: true };
          // The reader has caught up: everything it read may be refilled (a worker holding an
          // event larger than the credit left must never wait for a reader that waits for it).
          if (this.consumedSinceGrant > 0) {
            this.grant(this.consumedSinceGrant, this.bytesSinceGrant);
            this.consumedSinceGrant = 0;
            this.bytesSinceGrant = 0;
          }
          await new Promise<void>((resolve) => (this.wake = resolve));
          this.wake = undefined;
        }
      },
      return: async () => {
        if (!this.ended) this.onReturn();
        this.ended = true;
        return { value: undefined, done: true };
      },
    };
  }
}
