import type { CliQueryResult } from '../events/cli-query-result.js';
import type { CliStreamEvent } from '../events/cli-stream-event.js';
import type { AdapterContext, CliAdapter } from './cli-adapter.js';
import type { QueryRequest } from './requests.js';

/**
 * Implements `stream()` from `generate()` for CLIs without a native event stream: the result is
 * replayed as events in the canonical order (session, reasoning, tool calls/results, text, usage, finish).
 */
export abstract class BaseCliAdapter implements CliAdapter {
  abstract generate(request: QueryRequest, ctx: AdapterContext): Promise<CliQueryResult>;

  async *stream(request: QueryRequest, ctx: AdapterContext): AsyncIterable<CliStreamEvent> {
    const result = await this.generate(request, ctx);
    yield* resultToEvents(result);
  }
}

export function* resultToEvents(result: CliQueryResult): Generator<CliStreamEvent> {
  if (result.sessionId) yield { type: 'session', sessionId: result.sessionId };
  if (result.reasoning) yield { type: 'reasoning', text: result.reasoning };
  for (const call of result.toolCalls) yield { type: 'tool-call', ...call };
  for (const toolResult of result.toolResults) yield { type: 'tool-result', ...toolResult };
  if (result.text) yield { type: 'text', text: result.text };
  if (result.usage) yield { type: 'usage', ...result.usage };
  if (result.error) yield { type: 'error', ...result.error };
  yield { type: 'finish', finishReason: result.finishReason };
}
