import type { CliQueryResult } from './cli-query-result.js';
import type { CliStreamEvent } from './cli-stream-event.js';

/**
 * Aggregates a stream of canonical events into the canonical result. Text and reasoning
 * concatenate; usage events are summed (providers emit one per turn); the last finish wins;
 * an `error` event sets `finishReason: 'error'` unless a later finish says otherwise.
 */
export async function collectCliQueryStream(
  events: AsyncIterable<CliStreamEvent> | Iterable<CliStreamEvent>,
): Promise<CliQueryResult> {
  const result: CliQueryResult = { text: '', toolCalls: [], toolResults: [], finishReason: 'other', warnings: [] };
  let reasoning = '';
  let finished = false;
  for await (const event of events) {
    switch (event.type) {
      case 'text':
        result.text += event.text;
        break;
      case 'reasoning':
        reasoning += event.text;
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
        finished = true;
        break;
      case 'error':
        result.error = { code: event.code, message: event.message };
        if (!finished) result.finishReason = 'error';
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
  if (reasoning) result.reasoning = reasoning;
  return result;
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
