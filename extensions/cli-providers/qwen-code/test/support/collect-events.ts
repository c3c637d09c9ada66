import type { CliStreamEvent } from '@svc-org/ai-sdk';

export async function collectEvents(events: AsyncIterable<CliStreamEvent>): Promise<CliStreamEvent[]> {
  const out: CliStreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}
