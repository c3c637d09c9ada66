// Behaviours of the line parser that the recordings do not show on their own.
import { describe, expect, test } from 'vitest';
import { ClaudeStreamParser } from '../src/query/claude-stream-parser.js';

const feed = (parser: ClaudeStreamParser, ...lines: object[]) => lines.map((line) => parser.line(JSON.stringify(line)));

describe('the stream-json parser', () => {
  test('an unparsable line becomes a warning, and parsing goes on', () => {
    const parser = new ClaudeStreamParser();
    expect(parser.line('Error: something on stdout')).toEqual({ events: [], warnings: ['ignored an unparsable line from claude: Error: something on stdout'] });
    expect(parser.line('{"type":"system","subtype":"init","session_id":"s1"}').events).toEqual([{ type: 'session', sessionId: 's1' }]);
  });

  test('a line of unknown type becomes a warning', () => {
    expect(new ClaudeStreamParser().line('{"type":"prompt_suggestion","suggestion":"x"}').warnings).toEqual([
      'ignored a claude line of unknown type "prompt_suggestion"',
    ]);
  });

  test('a host timeout is an error "timeout" and finish "error"', () => {
    expect(new ClaudeStreamParser().end({ exitCode: null, signal: 'SIGKILL', killedBy: 'timeout' }, '').events).toEqual([
      { type: 'error', code: 'timeout', message: 'claude did not finish in time' },
      { type: 'finish', finishReason: 'error' },
    ]);
  });

  test('a clean exit without a result line finishes "other" with a warning', () => {
    expect(new ClaudeStreamParser().end({ exitCode: 0, signal: null }, '')).toEqual({
      events: [{ type: 'finish', finishReason: 'other' }],
      warnings: ['claude exited without a result line'],
    });
  });

  test('a complete block that differs from its deltas keeps both, with a warning', () => {
    const parser = new ClaudeStreamParser();
    const steps = feed(
      parser,
      { type: 'stream_event', event: { type: 'message_start', message: { id: 'm1' } } },
      { type: 'stream_event', event: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
      { type: 'stream_event', event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } } },
      { type: 'assistant', message: { id: 'm1', content: [{ type: 'text', text: 'Hi there' }] } },
    );
    expect(steps.flatMap((step) => step.events)).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'Hi there' },
    ]);
    expect(steps.flatMap((step) => step.warnings)).toEqual(['the complete text block differs from its streamed deltas; both were kept']);
  });

  test('a tool result for a call never seen is kept, named "unknown", with a warning', () => {
    const [step] = feed(new ClaudeStreamParser(), {
      type: 'user',
      message: { content: [{ type: 'tool_result', tool_use_id: 't9', content: [{ type: 'text', text: 'ok' }] }] },
    });
    expect(step).toEqual({
      events: [{ type: 'tool-result', toolCallId: 't9', toolName: 'unknown', output: [{ type: 'text', text: 'ok' }] }],
      warnings: ['a tool result for an unknown tool call "t9"'],
    });
  });

  test('a synthetic error message followed by a successful result becomes a warning, not text', () => {
    const steps = feed(
      new ClaudeStreamParser(),
      { type: 'assistant', error: 'rate_limit', message: { id: 'x', model: '<synthetic>', content: [{ type: 'text', text: 'API Error: 429' }] } },
      { type: 'result', subtype: 'success', is_error: false, stop_reason: 'end_turn', result: '' },
    );
    expect(steps.flatMap((step) => step.events)).toEqual([{ type: 'finish', finishReason: 'stop' }]);
    expect(steps.flatMap((step) => step.warnings)).toEqual(['claude reported: API Error: 429']);
  });

  test('max_tokens finishes "length"; an unknown stop reason "other"', () => {
    expect(feed(new ClaudeStreamParser(), { type: 'result', subtype: 'success', is_error: false, stop_reason: 'max_tokens' })[0]!.events).toEqual([
      { type: 'finish', finishReason: 'length' },
    ]);
    expect(feed(new ClaudeStreamParser(), { type: 'result', subtype: 'success', is_error: false, stop_reason: 'refusal' })[0]!.events).toEqual([
      { type: 'finish', finishReason: 'other' },
    ]);
  });

  test('an unknown system subtype becomes a warning; the known quiet ones do not', () => {
    const parser = new ClaudeStreamParser();
    expect(parser.line('{"type":"system","subtype":"thinking_tokens","estimated_tokens":4}').warnings).toEqual([]);
    expect(parser.line('{"type":"system","subtype":"brand_new"}').warnings).toEqual(['ignored a claude system line of subtype "brand_new"']);
  });
});
