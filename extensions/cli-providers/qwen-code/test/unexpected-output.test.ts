// Output the recordings do not contain: broken lines, a missing result, a killed CLI. None may crash.
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { expect, test } from 'vitest';
import { QwenCodeAdapter } from '../src/qwen-code-adapter.js';
import { QwenEventMapper } from '../src/qwen-event-mapper.js';
import { collectEvents } from './support/collect-events.js';
import { loadRecording } from './support/load-recording.js';

const request = { prompt: 'Say hello', cwd: '/work/project' };
const SESSION = '606f6d75-128e-4a79-874f-d2abc5e5f104';
const lines = loadRecording('stream-json-text').stdout.split('\n');

test('an unparsable line is a logged warning and the run goes on', async () => {
  const stdout = [lines[0], 'Loading extensions…', '{"no":"type"}', '{"type":"system"', ...lines.slice(1)].join('\n');
  const testHost = createTestHost({ cli: { command: 'qwen' }, spawn: () => ({ stdout }) });
  const events = await collectEvents(new QwenCodeAdapter().stream(request, testHost.context()));
  expect(events).toEqual([
    { type: 'session', sessionId: SESSION },
    { type: 'text', text: 'Hello from the scripted model.' },
    { type: 'usage', inputTokens: 12, outputTokens: 5, totalTokens: 17 },
    { type: 'finish', finishReason: 'stop' },
  ]);
  expect(testHost.logs.map((record) => [record.level, record.message])).toEqual([
    ['warn', 'ignored a qwen output line that is not JSON: Loading extensions…'],
    ['warn', 'ignored a qwen output line that is not a message: {"no":"type"}'],
    ['warn', 'ignored a qwen output line that is not JSON: {"type":"system"'],
  ]);
});

test('a clean exit without a result line is cli_output_invalid', async () => {
  const testHost = createTestHost({ cli: { command: 'qwen' }, spawn: () => ({ stdout: `${lines[0]}\n` }) });
  expect(await collectEvents(new QwenCodeAdapter().stream(request, testHost.context()))).toEqual([
    { type: 'session', sessionId: SESSION },
    { type: 'error', code: 'cli_output_invalid', message: 'qwen exited without printing a result' },
    { type: 'finish', finishReason: 'error' },
  ]);
});

test('a failed exit without a result line is cli_failed with the end of stderr', async () => {
  const stderr = `${'x'.repeat(5000)}\nFatal: something broke\n`;
  const testHost = createTestHost({ cli: { command: 'qwen' }, spawn: () => ({ stdout: '', stderr, exitCode: 2 }) });
  const events = await collectEvents(new QwenCodeAdapter().stream(request, testHost.context()));
  expect(events).toHaveLength(2);
  const error = events[0] as { type: string; code: string; message: string };
  expect(error.code).toBe('cli_failed');
  expect(error.message.startsWith('qwen exited with code 2: xxx')).toBe(true);
  expect(error.message.endsWith('Fatal: something broke')).toBe(true);
  expect(error.message.length).toBeLessThan(4100);
  expect(events[1]).toEqual({ type: 'finish', finishReason: 'error' });
});

test('generate() turns output that is not a JSON array into a warning and cli_output_invalid', async () => {
  const testHost = createTestHost({ cli: { command: 'qwen' }, spawn: () => ({ stdout: 'Hello\n' }) });
  expect(await new QwenCodeAdapter().generate(request, testHost.context())).toEqual({
    text: '',
    toolCalls: [],
    toolResults: [],
    finishReason: 'error',
    error: { code: 'cli_output_invalid', message: 'qwen exited without printing a result' },
    warnings: ['qwen printed output that is not a JSON array of messages'],
  });
});

test('a CLI ended by a signal it was not asked for is cli_failed', () => {
  const mapper = new QwenEventMapper(() => undefined);
  expect(mapper.end({ exit: { exitCode: null, signal: 'SIGKILL' }, cancelled: false, stderr: '' })).toEqual([
    { type: 'error', code: 'cli_failed', message: 'qwen was ended by SIGKILL' },
    { type: 'finish', finishReason: 'error' },
  ]);
});

test('a CLI stopped by the host timeout is a timeout error', () => {
  const mapper = new QwenEventMapper(() => undefined);
  expect(mapper.end({ exit: { exitCode: null, signal: 'SIGTERM', killedBy: 'timeout' }, cancelled: false, stderr: '' })).toEqual([
    { type: 'error', code: 'timeout', message: 'qwen was stopped: the call timed out' },
    { type: 'finish', finishReason: 'error' },
  ]);
});

test('a tool result for a call it never saw keeps its id, with a warning', () => {
  const warnings: string[] = [];
  const mapper = new QwenEventMapper((warning) => warnings.push(warning));
  expect(
    mapper.map({ type: 'user', content: [{ type: 'tool_result', toolUseId: 'call_x', content: 'out', isError: true }] }),
  ).toEqual([{ type: 'tool-result', toolCallId: 'call_x', toolName: 'unknown', output: 'out', isError: true }]);
  expect(warnings).toEqual(['qwen returned a result for an unknown tool call call_x']);
});
