import { cliStreamEvents, type CliStreamEvent, type CliStreamItem } from '@svc-org/ai-sdk';

export async function collectEvents(events: AsyncIterable<CliStreamItem>): Promise<CliStreamEvent[]> {
  const out: CliStreamEvent[] = [];
  for await (const event of cliStreamEvents(events)) out.push(event);
  return out;
}
