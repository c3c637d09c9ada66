import { cliStreamEvents } from '@svc-org/ai-sdk';
import type { CliStreamEvent, QueryRequest } from '@svc-org/ai-sdk';
import { createTestHost, type ProcessScript, type TestHostOptions } from '@svc-org/ai-sdk/testing';
import { CodexAdapter } from '../../src/codex-adapter.js';

export const PERMISSIONS = ['process:spawn', 'network:provider', 'config:provider'] as const;

/** Streams one query through the adapter with a test host whose CLI prints `script`. */
export async function streamScript(
  script: ProcessScript,
  request: Partial<QueryRequest> = {},
  options: TestHostOptions = {},
): Promise<{ events: CliStreamEvent[]; test: ReturnType<typeof createTestHost> }> {
  const test = createTestHost({ permissions: [...PERMISSIONS], cli: { command: 'codex', version: '0.169.0' }, ...options, spawn: () => script });
  const events: CliStreamEvent[] = [];
  for await (const event of cliStreamEvents(new CodexAdapter().stream({ prompt: 'p', cwd: '/work', ...request }, test.context()))) events.push(event);
  return { events, test };
}
