import type { CliQueryResult } from './cli-query-result.js';
import { isCliStreamBatch, type CliStreamItem } from './cli-stream-batches.js';
import type { CliStreamEvent } from './cli-stream-event.js';

/**
 * Aggregates a stream of canonical events (one at a time or in batches) into the canonical result.
 * Text and reasoning concatenate; usage events are summed (providers emit one per turn); the last
 * finish wins; an `error` event sets `finishReason: 'error'` unless a later finish says otherwise.
 */
export async function collectCliQueryStream(
  events: AsyncIterable<CliStreamItem> | Iterable<CliStreamItem>,
): Promise<CliQueryResult> {
  const result: CliQueryResult = { text: '', toolCalls: [], toolResults: [], finishReason: 'other', warnings: [] };
  const state = { reasoning: '', finished: false };
  for await (const item of events) {
    if (isCliStreamBatch(item)) for (const event of item) addEvent(result, state, event);
    else addEvent(result, state, item);
  }
  if (state.reasoning) result.reasoning = state.reasoning;
  return result;
}

function addEvent(result: CliQueryResult, state: { reasoning: string; finished: boolean }, event: CliStreamEvent): void {
  switch (event.type) {
    case 'text':
      result.text += event.text;
      break;
    case 'reasoning':
      state.reasoning += event.text;
      break;
    case 'tool-call':
      result.toolCalls.push({ toolCallId: event.toolCallId, toolName: event.toolName, input: event.input });
      break;
    case 'tool-result':
      result.toolResults.push({
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        output: event.output,
        ...(event.isError === undefined ? {} : { isError: event.isError }),
      });
      break;
    case 'usage':
      result.usage = addUsage(result.usage, event);
      break;
    case 'session':
      result.sessionId = event.sessionId;
      break;
    case 'finish':
      result.finishReason = event.finishReason;
      state.finished = true;
      break;
    case 'error':
      result.error = { code: event.code, message: event.message };
      if (!state.finished) result.finishReason = 'error';
      break;
    case 'warning':
      result.warnings.push(event.message);
      break;
    default: {
      const unknownEvent: never = event;
      result.warnings.push(`ignored unknown event ${JSON.stringify(unknownEvent)}`);
    }
  }
}

function addUsage(
  total: CliQueryResult['usage'],
  event: Extract<CliStreamEvent, { type: 'usage' }>,
): NonNullable<CliQueryResult['usage']> {
  const sum = (a: number | undefined, b: number | undefined) =>
    a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
  const next = {
    inputTokens: (total?.inputTokens ?? 0) + event.inputTokens,
    outputTokens: (total?.outputTokens ?? 0) + event.outputTokens,
    totalTokens: sum(total?.totalTokens, event.totalTokens),
    costUsd: sum(total?.costUsd, event.costUsd),
  };
  if (next.totalTokens === undefined) delete next.totalTokens;
  if (next.costUsd === undefined) delete next.costUsd;
  return next;
}
