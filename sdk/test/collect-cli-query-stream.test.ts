import { describe, expect, test } from 'vitest';
import { CliStreamEventSchema, collectCliQueryStream, resultToEvents, type CliStreamEvent } from '../src/index.js';

describe('collectCliQueryStream', () => {
  test('a warning event is kept in the result, in order, and is valid in the event schema', async () => {
    const events: CliStreamEvent[] = [
      { type: 'warning', message: 'model x is busy; answered with model y' },
      { type: 'text', text: 'ok' },
      { type: 'warning', message: 'skipped 2 binary files' },
      { type: 'finish', finishReason: 'stop' },
    ];
    for (const event of events) expect(CliStreamEventSchema.safeParse(event).success).toBe(true);
    expect(await collectCliQueryStream(events)).toMatchObject({
      text: 'ok',
      finishReason: 'stop',
      warnings: ['model x is busy; answered with model y', 'skipped 2 binary files'],
    });
  });

  test('aggregates text, reasoning, tools, summed usage, session and finish', async () => {
    const events: CliStreamEvent[] = [
      { type: 'session', sessionId: 's-1' },
      { type: 'reasoning', text: 'think ' },
      { type: 'reasoning', text: 'more' },
      { type: 'tool-call', toolCallId: 't1', toolName: 'read_file', input: { path: 'a' } },
      { type: 'tool-result', toolCallId: 't1', toolName: 'read_file', output: 'A', isError: false },
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'usage', inputTokens: 10, outputTokens: 2, totalTokens: 12 },
      { type: 'usage', inputTokens: 5, outputTokens: 1, totalTokens: 6, costUsd: 0.01 },
      { type: 'finish', finishReason: 'stop' },
    ];
    expect(await collectCliQueryStream(events)).toEqual({
      text: 'Hello',
      reasoning: 'think more',
      toolCalls: [{ toolCallId: 't1', toolName: 'read_file', input: { path: 'a' } }],
      toolResults: [{ toolCallId: 't1', toolName: 'read_file', output: 'A', isError: false }],
      usage: { inputTokens: 15, outputTokens: 3, totalTokens: 18, costUsd: 0.01 },
      sessionId: 's-1',
      finishReason: 'stop',
      warnings: [],
    });
  });

  test('an error event without a finish ends as error and keeps the code', async () => {
    const result = await collectCliQueryStream([{ type: 'text', text: 'x' }, { type: 'error', code: 'cli_api_error', message: 'boom' }]);
    expect(result.finishReason).toBe('error');
    expect(result.error).toEqual({ code: 'cli_api_error', message: 'boom' });
  });

  test('a finish after the error wins (max turns reported with its error)', async () => {
    const result = await collectCliQueryStream([
      { type: 'error', code: 'max_turns', message: 'limit' },
      { type: 'finish', finishReason: 'max-turns' },
    ]);
    expect(result.finishReason).toBe('max-turns');
  });

  test('replaying a result as events and collecting it again gives the same result', async () => {
    const result = {
      text: 'answer',
      reasoning: 'why',
      toolCalls: [{ toolCallId: 'a', toolName: 'ls', input: {} }],
      toolResults: [{ toolCallId: 'a', toolName: 'ls', output: ['x'] }],
      usage: { inputTokens: 1, outputTokens: 2 },
      sessionId: 's',
      finishReason: 'stop' as const,
      warnings: [],
    };
    expect(await collectCliQueryStream(resultToEvents(result))).toEqual(result);
  });
});
