import type { CliStreamEvent } from '@svc-org/ai-sdk';

/**
 * Joins runs of `text` (and of `reasoning`) events: how a CLI splits an answer into deltas depends
 * on its buffering, what the deltas add up to does not. Everything else is kept as it came.
 */
export function mergeDeltas(events: CliStreamEvent[]): CliStreamEvent[] {
  const out: CliStreamEvent[] = [];
  for (const event of events) {
    const last = out.at(-1);
    if ((event.type === 'text' || event.type === 'reasoning') && last?.type === event.type) {
      out[out.length - 1] = { type: event.type, text: last.text + event.text };
    } else {
      out.push(event);
    }
  }
  return out;
}
