// The public Claude Code samples of ../shared/cli-formats (real 2.1.276 output from another
// project's fixtures), copied verbatim with their .source.txt into test/fixtures/public-samples.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PUBLIC_SAMPLES_DIR } from './support/paths.js';
import { replayGenerate, replayStream } from './support/replay.js';

const sample = (name: string) => readFileSync(join(PUBLIC_SAMPLES_DIR, name), 'utf8');

describe('the public samples', () => {
  // An excerpt: init, one text_delta whose block start is not in the excerpt, the complete
  // assistant text, the result. The orphan delta is not used; the complete block gives the text.
  test('claude-code-stream-basic.jsonl gives its text, usage and session', async () => {
    const { events, logs } = await replayStream({ stdout: sample('claude-code-stream-basic.jsonl'), exitCode: 0 });
    expect(events).toEqual([
      { type: 'session', sessionId: '8d45afe0-771b-4803-8379-491dd9455365' },
      { type: 'text', text: 'pong' },
      // 2 input + 19826 cache creation + 11590 cache read.
      { type: 'usage', inputTokens: 31418, outputTokens: 4, totalTokens: 31422, costUsd: 0.3996375 },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(logs.filter((log) => log.level === 'warn')).toEqual([]);
  });

  // A whole session with partial messages: a redacted (empty) thinking block, a Read call and its
  // result, the replayed prompt (string content), a rate_limit_event, the final text as deltas.
  test('claude-code-stream-tools.jsonl pairs the Read call with its result and streams the answer', async () => {
    const { events, logs } = await replayStream({ stdout: sample('claude-code-stream-tools.jsonl'), exitCode: 0 });
    expect(events).toEqual([
      { type: 'session', sessionId: '180be86c-2552-4676-a118-3ebfe8122940' },
      {
        type: 'tool-call',
        toolCallId: 'toolu_01JGXzWaNtEkrsHrMVyuvqdP',
        toolName: 'Read',
        input: { file_path: '/tmp/styr-fixture-ws/note.txt' },
      },
      { type: 'tool-result', toolCallId: 'toolu_01JGXzWaNtEkrsHrMVyuvqdP', toolName: 'Read', output: '1\thello\n2\t' },
      { type: 'text', text: 'h' },
      { type: 'text', text: 'ello' },
      { type: 'usage', inputTokens: 70583, outputTokens: 111, totalTokens: 70694, costUsd: 0.46239199999999997 },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(logs.filter((log) => log.level === 'warn')).toEqual([]);
  });

  test('generate() over the tools sample gives the canonical result', async () => {
    const { result } = await replayGenerate({ stdout: sample('claude-code-stream-tools.jsonl'), exitCode: 0 });
    expect(result).toEqual({
      text: 'hello',
      toolCalls: [{ toolCallId: 'toolu_01JGXzWaNtEkrsHrMVyuvqdP', toolName: 'Read', input: { file_path: '/tmp/styr-fixture-ws/note.txt' } }],
      toolResults: [{ toolCallId: 'toolu_01JGXzWaNtEkrsHrMVyuvqdP', toolName: 'Read', output: '1\thello\n2\t' }],
      usage: { inputTokens: 70583, outputTokens: 111, totalTokens: 70694, costUsd: 0.46239199999999997 },
      sessionId: '180be86c-2552-4676-a118-3ebfe8122940',
      finishReason: 'stop',
      warnings: [],
    });
  });
});
