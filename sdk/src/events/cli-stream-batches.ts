import type { CliStreamEvent } from './cli-stream-event.js';

/**
 * What a `stream()` yields: one event, or several in order as one item (the events one chunk of the
 * CLI's output completed). A batch costs its consumer one await instead of one per event; an empty
 * batch is allowed and carries nothing.
 */
export type CliStreamItem = CliStreamEvent | readonly CliStreamEvent[];

/** A stream's items one event at a time, in order: for a consumer that reads events one by one. */
export async function* cliStreamEvents(items: AsyncIterable<CliStreamItem> | Iterable<CliStreamItem>): AsyncGenerator<CliStreamEvent> {
  for await (const item of items) {
    if (isCliStreamBatch(item)) {
      // A plain loop: `yield*` over an array costs an extra promise per event.
      for (const event of item) yield event;
    } else yield item;
  }
}

/** Whether a stream item is a batch of events rather than one event. */
export function isCliStreamBatch(item: CliStreamItem): item is readonly CliStreamEvent[] {
  return Array.isArray(item);
}
