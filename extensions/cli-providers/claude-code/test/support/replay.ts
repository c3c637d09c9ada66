import { cliStreamEvents } from '@svc-org/ai-sdk';
import type { CliQueryResult, CliStreamEvent, JsonValue, QueryRequest } from '@svc-org/ai-sdk';
import { createTestHost, type LogRecord, type ProcessScript } from '@svc-org/ai-sdk/testing';
import type { ProcessSpec } from '@svc-org/ai-sdk';
import { svcCliPlugin } from '../../src/index.js';

export const QUERY: QueryRequest = { prompt: 'Say hello.', cwd: '/work/project' };

export interface Replayed {
  events: CliStreamEvent[];
  logs: LogRecord[];
  spawned: ProcessSpec[];
}

function host(script: ProcessScript, config: Record<string, JsonValue>) {
  return createTestHost({
    pluginId: 'svc-official.claude-code',
    permissions: ['process:spawn', 'config:provider'],
    config,
    cli: { command: '/usr/local/bin/claude', version: '2.1.197' },
    spawn: () => script,
  });
}

/** stream() over a scripted process: every event, in order. */
export async function replayStream(script: ProcessScript, request: QueryRequest = QUERY, config: Record<string, JsonValue> = {}): Promise<Replayed> {
  const test = host(script, config);
  const adapter = await svcCliPlugin.createAdapter();
  const events: CliStreamEvent[] = [];
  for await (const event of cliStreamEvents(adapter.stream!(request, test.context()))) events.push(event);
  return { events, logs: test.logs, spawned: test.spawned };
}

/** generate() over a scripted process. */
export async function replayGenerate(
  script: ProcessScript,
  request: QueryRequest = QUERY,
  config: Record<string, JsonValue> = {},
): Promise<{ result: CliQueryResult; logs: LogRecord[]; spawned: ProcessSpec[] }> {
  const test = host(script, config);
  const adapter = await svcCliPlugin.createAdapter();
  const result = await adapter.generate(request, test.context());
  return { result, logs: test.logs, spawned: test.spawned };
}
