// Every recording of the real CLI, replayed through the adapter: the canonical events and results
// are pinned exactly. Recordings: test/fake-clis/qwen/recordings (README there says how they were made).
import { isCliStreamBatch, type CliQueryResult, type CliStreamEvent, type CliStreamItem } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { describe, expect, test } from 'vitest';
import { QwenCodeAdapter } from '../src/qwen-code-adapter.js';
import { collectEvents } from './support/collect-events.js';
import { loadRecording, recordingScript } from './support/load-recording.js';

const FILE = '/tmp/qwen-record/project/hello.txt';
const SHARED_SESSION = '606f6d75-128e-4a79-874f-d2abc5e5f104';
const NO_SESSION =
  'qwen exited with code 1: No saved session found with ID 00000000-0000-4000-8000-000000000000. Run `qwen --resume` without an ID to choose from existing sessions.';

const session = (sessionId: string): CliStreamEvent => ({ type: 'session', sessionId });
const text = (value: string): CliStreamEvent => ({ type: 'text', text: value });
const usage = (inputTokens: number, outputTokens: number): CliStreamEvent => ({
  type: 'usage',
  inputTokens,
  outputTokens,
  totalTokens: inputTokens + outputTokens,
});
const finish = (finishReason: 'stop' | 'max-turns' | 'error'): CliStreamEvent => ({ type: 'finish', finishReason });
const error = (code: string, message: string): CliStreamEvent => ({ type: 'error', code, message });
const readCall: CliStreamEvent = { type: 'tool-call', toolCallId: 'call_read_1', toolName: 'read_file', input: { file_path: FILE } };
const readResult: CliStreamEvent = {
  type: 'tool-result',
  toolCallId: 'call_read_1',
  toolName: 'read_file',
  output: 'hello\n',
  isError: false,
};

const toolRun = (id: string) => [
  session(id),
  text('Let me read the file.'),
  readCall,
  usage(20, 7),
  readResult,
  text('The file says hello.'),
  usage(30, 6),
  finish('stop'),
];
const maxTurnsRun = (id: string) => [session(id), text('Let me read the file.'), readCall, usage(20, 7), readResult, finish('max-turns')];

const streamCases: [string, CliStreamEvent[]][] = [
  ['stream-json-text', [session(SHARED_SESSION), text('Hello from the scripted model.'), usage(12, 5), finish('stop')]],
  ['stream-json-resume', [session(SHARED_SESSION), text('Hello again, same session.'), usage(30, 6), finish('stop')]],
  ['stream-json-continue', [session(SHARED_SESSION), text('Continuing the latest session.'), usage(44, 5), finish('stop')]],
  ['stream-json-resume-unknown', [error('cli_failed', NO_SESSION), finish('error')]],
  [
    'stream-json-model',
    [session('84ab8ecb-cf98-41c4-ad90-6ff75a2823e5'), text('Hello from qwen3-coder-plus.'), usage(12, 5), finish('stop')],
  ],
  ['stream-json-tool', toolRun('122e8ee5-39ae-4513-8eb9-90c73e2557bc')],
  [
    'stream-json-thinking',
    [
      session('7630115e-6329-4c49-9d44-92642fbec583'),
      { type: 'reasoning', text: 'The user wants a greeting. A short one will do.' },
      text('Hello after thinking.'),
      usage(15, 9),
      finish('stop'),
    ],
  ],
  [
    'stream-json-partial',
    [
      session('ebdbd41a-85b1-4aca-b5d9-2fc1bea4ca2d'),
      text('Hello from the scripted model, streamed in parts.'),
      usage(12, 11),
      finish('stop'),
    ],
  ],
  ['stream-json-max-turns', maxTurnsRun('e44820f9-939b-4688-9c80-a4e532c07c45')],
  [
    'stream-json-auth-401',
    [session('458d4003-b0c7-4652-b3ea-1663d4e60edf'), error('cli_auth_failed', '401 Incorrect API key provided: placeholder.'), finish('error')],
  ],
  [
    'stream-json-unreachable',
    [
      session('9681f3e0-f6ee-4936-a9f2-1895049b54d9'),
      error('cli_api_error', 'Connection error. (cause: connect ECONNREFUSED 127.0.0.1:38575)'),
      finish('error'),
    ],
  ],
  // Qwen Code 0.21.2, the oldest published version in range: API errors are a successful result.
  [
    'stream-json-text.0.21.2',
    [session('4c594ccd-53c8-4972-8062-c9121a063971'), text('Hello from the scripted model.'), usage(12, 5), finish('stop')],
  ],
  ['stream-json-tool.0.21.2', toolRun('b3bc52b3-276a-439c-97f7-4d504960d75b')],
  ['stream-json-max-turns.0.21.2', maxTurnsRun('9db3e02e-de12-40d9-873e-7b053919918f')],
  [
    'stream-json-auth-401.0.21.2',
    [session('20dcc284-3e23-4276-a600-24251709816c'), error('cli_auth_failed', '401 Incorrect API key provided: placeholder.'), finish('error')],
  ],
  [
    'stream-json-unreachable.0.21.2',
    [
      session('052a95c3-b5ff-4b4c-af0e-90949443e483'),
      error('cli_api_error', 'Connection error. (cause: connect ECONNREFUSED 127.0.0.1:44197)'),
      finish('error'),
    ],
  ],
];

const result = (fields: Partial<CliQueryResult>): CliQueryResult => ({
  text: '',
  toolCalls: [],
  toolResults: [],
  finishReason: 'stop',
  warnings: [],
  ...fields,
});
const tokens = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens, totalTokens: inputTokens + outputTokens });
const call = { toolCallId: 'call_read_1', toolName: 'read_file', input: { file_path: FILE } };
const callResult = { toolCallId: 'call_read_1', toolName: 'read_file', output: 'hello\n', isError: false };

const generateCases: [string, CliQueryResult][] = [
  [
    'json-text',
    result({ text: 'Hello from the scripted model.', usage: tokens(12, 5), sessionId: '36b2bbcf-9485-4b48-ac19-f356576057ab' }),
  ],
  ['json-resume', result({ text: 'Hello again, same session.', usage: tokens(30, 6), sessionId: SHARED_SESSION })],
  ['json-continue', result({ text: 'Continuing the latest session.', usage: tokens(44, 5), sessionId: SHARED_SESSION })],
  ['json-resume-unknown', result({ finishReason: 'error', error: { code: 'cli_failed', message: NO_SESSION } })],
  [
    'json-model',
    result({ text: 'Hello from qwen3-coder-plus.', usage: tokens(12, 5), sessionId: 'efb4dcde-f930-4cd6-9ee5-58735c9c80d9' }),
  ],
  [
    'json-tool',
    result({
      // Text blocks of the run concatenate as they came (SDK rule); no separator is invented.
      text: 'Let me read the file.The file says hello.',
      toolCalls: [call],
      toolResults: [callResult],
      usage: tokens(50, 13),
      sessionId: 'd3133206-b68f-4cdc-a3f4-cf0c9ec1fad9',
    }),
  ],
  [
    'json-thinking',
    result({
      text: 'Hello after thinking.',
      reasoning: 'The user wants a greeting. A short one will do.',
      usage: tokens(15, 9),
      sessionId: '7539acc3-34bc-4964-bb86-f72d546e2bdb',
    }),
  ],
  // json mode prints nothing at all when the turn limit is hit: only the exit code 53 is left.
  ['json-max-turns', result({ finishReason: 'max-turns' })],
  [
    'json-auth-401',
    result({
      finishReason: 'error',
      sessionId: '61a3c520-6d72-4338-bdd1-acf87eaf4f30',
      error: { code: 'cli_auth_failed', message: '401 Incorrect API key provided: placeholder.' },
    }),
  ],
  [
    'json-unreachable',
    result({
      finishReason: 'error',
      sessionId: '010c20bd-d373-43ff-9da0-dea2a60f8b0d',
      error: { code: 'cli_api_error', message: 'Connection error. (cause: connect ECONNREFUSED 127.0.0.1:38233)' },
    }),
  ],
  [
    'json-text.0.21.2',
    result({ text: 'Hello from the scripted model.', usage: tokens(12, 5), sessionId: '01210eaf-8776-4d88-ba94-bc8108997713' }),
  ],
  [
    'json-auth-401.0.21.2',
    result({
      finishReason: 'error',
      sessionId: '2c2f8e90-e31c-4c9a-8ae1-65712bf30712',
      error: { code: 'cli_auth_failed', message: '401 Incorrect API key provided: placeholder.' },
    }),
  ],
  [
    'json-unreachable.0.21.2',
    result({
      finishReason: 'error',
      sessionId: '68ef1375-9424-4c4a-ad8a-3bab5986a815',
      error: { code: 'cli_api_error', message: 'Connection error. (cause: connect ECONNREFUSED 127.0.0.1:39857)' },
    }),
  ],
];

const request = { prompt: 'Say hello', cwd: '/tmp/qwen-record/project' };

describe('stream() replays of real Qwen Code stream-json output', () => {
  test.each(streamCases)('maps %s to the canonical events', async (name, expected) => {
    const testHost = createTestHost({ cli: { command: 'qwen' }, spawn: () => recordingScript(name) });
    const events = await collectEvents(new QwenCodeAdapter().stream(request, testHost.context()));
    expect(events).toEqual(expected);
    expect(testHost.logs.filter((record) => record.level === 'warn')).toEqual([]);
  });

  test('the events of one chunk of output come as one batch: one item for the consumer, not one per event', async () => {
    const recording = loadRecording('stream-json-tool');
    const testHost = createTestHost({ cli: { command: 'qwen' }, spawn: () => ({ ...recordingScript('stream-json-tool'), stdout: recording.stdout }) });
    const items: CliStreamItem[] = [];
    for await (const item of new QwenCodeAdapter().stream(request, testHost.context())) items.push(item);
    const expected = streamCases.find(([name]) => name === 'stream-json-tool')![1];
    // The chunk's events, then the finish once the process has exited.
    expect(items).toEqual([expected.slice(0, -1), expected.slice(-1)]);
    expect(items.every(isCliStreamBatch)).toBe(true);
  });
});

describe('generate() replays of real Qwen Code json output', () => {
  test.each(generateCases)('maps %s to the canonical result', async (name, expected) => {
    const testHost = createTestHost({ cli: { command: 'qwen' }, spawn: () => recordingScript(name) });
    expect(await new QwenCodeAdapter().generate(request, testHost.context())).toEqual(expected);
  });
});
