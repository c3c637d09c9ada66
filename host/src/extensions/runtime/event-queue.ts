import type { CliStreamEvent } from '@svc-org/ai-sdk';

/** Events from the worker, pulled by the host's consumer; consumption grants the worker more credit. */
export class EventQueue implements AsyncIterable<CliStreamEvent> {
  private readonly events: CliStreamEvent[] = [];
  private head = 0;
  private ended = false;
  private wake: (() => void) | undefined;
  private consumedSinceGrant = 0;

  constructor(private readonly grant: (n: number) => void, private readonly grantEvery: number, private readonly onReturn: () => void) {}

  push(batch: CliStreamEvent[]): void {
    for (const event of batch) this.events.push(event);
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
            const value = this.events[this.head++]!;
            if (this.head > 4096) {
              this.events.splice(0, this.head);
              this.head = 0;
            }
            if (++this.consumedSinceGrant >= this.grantEvery) {
              this.grant(this.consumedSinceGrant);
              this.consumedSinceGrant = 0;
            }
            return { value, done: false };
          }
          if (this.ended) return { value: undefined, done: true };
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
