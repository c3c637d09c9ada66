// The public Gemini CLI samples of ../shared/cli-formats, copied verbatim (with their .source.txt)
// into test/fixtures/public-samples, replayed through the adapter.
import { cliStreamEvents } from '@svc-org/ai-sdk';
import type { CliStreamEvent } from '@svc-org/ai-sdk';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { svcCliPlugin } from '../src/index.js';
import { PUBLIC_SAMPLES, recordingHost } from './recording-host.js';

const REQUEST = { prompt: 'List files in current directory', cwd: '/work/project' };

async function replay(stdout: string) {
  const host = recordingHost({ stdout, stderr: '', exitCode: 0 });
  const adapter = await svcCliPlugin.createAdapter();
  const events: CliStreamEvent[] = [];
  for await (const event of cliStreamEvents(adapter.stream!(REQUEST, host.context()))) events.push(event);
  return { events, logs: host.logs };
}

/**
 * The vitest snapshots of the CLI's own stream-json test, keyed by test name. Their <TIMESTAMP> and
 * <DURATION> placeholders become a fixed time and 0 so that each line is JSON again.
 */
function snapshots(): Map<string, string> {
  const file = readFileSync(join(PUBLIC_SAMPLES, 'gemini-stream-json-snapshots.snap.txt'), 'utf8');
  const found = new Map<string, string>();
  for (const match of file.matchAll(/exports\[`([^`]+)`\] = `\n"([\s\S]*?)"\n`;/g)) {
    found.set(match[1]!, match[2]!.replaceAll('<TIMESTAMP>', '2025-10-10T12:00:00.000Z').replaceAll('<DURATION>', '0'));
  }
  return found;
}

const ZERO_USAGE = { type: 'usage', inputTokens: 0, outputTokens: 0, totalTokens: 0 } as const;

describe('the stream-json snapshots of the CLI source (nonInteractiveCli.test.ts.snap)', () => {
  const all = snapshots();

  test('the snapshot file holds the four snapshots this test knows', () => {
    expect([...all.keys()]).toEqual([
      "runNonInteractive > should emit appropriate error event in streaming JSON mode: 'loop detected' 1",
      "runNonInteractive > should emit appropriate error event in streaming JSON mode: 'max session turns' 1",
      'runNonInteractive > should emit appropriate events for streaming JSON output 1',
      'runNonInteractive > should write a single newline between sequential text outputs from the model 1',
    ]);
  });

  test('tool use and result between two assistant deltas', async () => {
    const { events, logs } = await replay(all.get('runNonInteractive > should emit appropriate events for streaming JSON output 1')!);
    expect(events).toEqual([
      { type: 'session', sessionId: 'test-session-id' },
      { type: 'text', text: 'Thinking...' },
      { type: 'tool-call', toolCallId: 'tool-1', toolName: 'testTool', input: { arg1: 'value1' } },
      { type: 'tool-result', toolCallId: 'tool-1', toolName: 'testTool', output: 'Tool executed successfully', isError: false },
      { type: 'text', text: 'Final answer' },
      ZERO_USAGE,
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(logs).toEqual([]);
  });

  test('a loop-detected warning line: a logged warning and finish "other", although the result says success', async () => {
    const { events, logs } = await replay(
      all.get("runNonInteractive > should emit appropriate error event in streaming JSON mode: 'loop detected' 1")!,
    );
    expect(events).toEqual([{ type: 'session', sessionId: 'test-session-id' }, ZERO_USAGE, { type: 'finish', finishReason: 'other' }]);
    expect(logs).toEqual([{ level: 'warn', message: 'gemini-cli stream: Loop detected, stopping execution' }]);
  });

  test('a non-fatal "Maximum session turns exceeded" error line: a max_turns error and finish max-turns', async () => {
    const { events } = await replay(
      all.get("runNonInteractive > should emit appropriate error event in streaming JSON mode: 'max session turns' 1")!,
    );
    expect(events).toEqual([
      { type: 'session', sessionId: 'test-session-id' },
      { type: 'error', code: 'max_turns', message: 'Maximum session turns exceeded' },
      ZERO_USAGE,
      { type: 'finish', finishReason: 'max-turns' },
    ]);
  });

  test('the text-format snapshot is not stream-json: every line is a warning and the run has no result', async () => {
    const { events, logs } = await replay(
      all.get('runNonInteractive > should write a single newline between sequential text outputs from the model 1')!,
    );
    expect(events).toEqual([
      { type: 'error', code: 'cli_output_invalid', message: 'gemini exited without a result line' },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(logs.map((log) => log.message)).toEqual([
      'gemini-cli stream: ignored a stdout line that is not a stream-json event: Use mock tool',
      'gemini-cli stream: ignored a stdout line that is not a stream-json event: Use mock tool again',
      'gemini-cli stream: ignored a stdout line that is not a stream-json event: Finished.',
    ]);
  });
});

test('the stream-json example of docs/cli/headless.md maps although it lacks fields of real output', async () => {
  const { events, logs } = await replay(readFileSync(join(PUBLIC_SAMPLES, 'gemini-stream-json.jsonl'), 'utf8'));
  expect(events).toEqual([
    { type: 'session', sessionId: 'abc123' },
    { type: 'tool-call', toolCallId: 'bash-123', toolName: 'Bash', input: { command: 'ls -la' } },
    { type: 'tool-result', toolCallId: 'bash-123', toolName: 'Bash', output: 'file1.txt\nfile2.txt', isError: false },
    { type: 'text', text: 'Here are the files...' },
    { type: 'usage', inputTokens: 50, outputTokens: 200, totalTokens: 250 },
    { type: 'finish', finishReason: 'stop' },
  ]);
  expect(logs).toEqual([]);
});

test('the -o json example of docs/cli/headless.md: usage summed over both models, no session id, tools as counts', async () => {
  const stdout = readFileSync(join(PUBLIC_SAMPLES, 'gemini-json-docs-example.json'), 'utf8');
  const adapter = await svcCliPlugin.createAdapter();
  const result = await adapter.generate(REQUEST, recordingHost({ stdout, stderr: '', exitCode: 0 }).context());
  expect(result).toEqual({
    text: 'The capital of France is Paris.',
    toolCalls: [],
    toolResults: [],
    finishReason: 'stop',
    warnings: ['gemini -o json reports tool calls only as counts (google_web_search ×1); stream() carries each call and its result'],
    usage: { inputTokens: 24939 + 8965, outputTokens: 20 + 10, totalTokens: 25113 + 9033 },
  });
});
