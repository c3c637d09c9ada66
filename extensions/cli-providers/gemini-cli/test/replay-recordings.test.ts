// Every recording of the real Gemini CLI 0.61.0 (test/fake-clis/gemini-cli/recordings), replayed
// through the adapter: the canonical events and results must be exactly these.
import { cliStreamEvents, collectCliQueryStream, type CliStreamEvent, type QueryRequest } from '@svc-org/ai-sdk';
import { describe, expect, test } from 'vitest';
import { svcCliPlugin } from '../src/index.js';
import { readRecording, recordingHost } from './recording-host.js';

const REQUEST: QueryRequest = { prompt: 'Read notes.txt and tell me what it says.', cwd: '/work/project' };

async function streamOf(name: string, request: QueryRequest = REQUEST): Promise<CliStreamEvent[]> {
  const host = recordingHost(name);
  const adapter = await svcCliPlugin.createAdapter();
  const events: CliStreamEvent[] = [];
  for await (const event of cliStreamEvents(adapter.stream!(request, host.context()))) events.push(event);
  expect(host.logs).toEqual([]);
  return events;
}

async function generateOf(name: string, request: QueryRequest = REQUEST) {
  const adapter = await svcCliPlugin.createAdapter();
  return adapter.generate(request, recordingHost(name).context());
}

const AUTH_MISSING =
  'Please set an Auth method in your /scratch/home-gemini-cli/rec/.gemini/settings.json or specify one of the following environment variables before running: GEMINI_API_KEY, GOOGLE_GENAI_USE_VERTEXAI, GOOGLE_GENAI_USE_GCA';
const UNTRUSTED =
  'Gemini CLI is not running in a trusted directory. To proceed, either use `--skip-trust`, set the `GEMINI_CLI_TRUST_WORKSPACE=true` environment variable, or trust this directory in interactive mode. For more details, see https://geminicli.com/docs/cli/trusted-folders/#headless-and-automated-environments';
const MAX_TURNS =
  'Reached max session turns for this session. Increase the number of turns by specifying maxSessionTurns in settings.json.';
const API_KEY_INVALID_BODY =
  '{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}';

describe('stream() over the recorded -o stream-json runs', () => {
  test('plain text: session from init, assistant deltas as text, usage from the result line, stop', async () => {
    expect(await streamOf('stream-text')).toEqual([
      { type: 'session', sessionId: '7463131f-e13b-457f-a58c-c21c700b2d55' },
      { type: 'text', text: 'Hello from the s' },
      { type: 'text', text: 'cripted model.' },
      { type: 'usage', inputTokens: 12, outputTokens: 5, totalTokens: 17 },
      { type: 'finish', finishReason: 'stop' },
    ]);
  });

  test('a tool call and its result are paired by tool_id, between the texts of both turns', async () => {
    const id = 'read_file__read_file_1795423035553_0';
    expect(await streamOf('stream-tool')).toEqual([
      { type: 'session', sessionId: '4c5456ab-c27d-49ad-9dda-a9690c40f4e6' },
      { type: 'text', text: 'Let me read the ' },
      { type: 'text', text: 'file.' },
      { type: 'tool-call', toolCallId: id, toolName: 'read_file', input: { file_path: 'notes.txt' } },
      { type: 'tool-result', toolCallId: id, toolName: 'read_file', output: '', isError: false },
      { type: 'text', text: 'The file says: a' },
      { type: 'text', text: 'lpha beta.' },
      // input_tokens counts cached tokens too; total_tokens also counts the 3 thought tokens.
      { type: 'usage', inputTokens: 52, outputTokens: 12, totalTokens: 67 },
      { type: 'finish', finishReason: 'stop' },
    ]);
  });

  test('a tool the headless CLI did not register comes back as an error result, and the run goes on', async () => {
    const id = 'run_shell_command__run_shell_command_1795423049013_0';
    expect(await streamOf('stream-tool-error')).toEqual([
      { type: 'session', sessionId: 'eb3b241e-1531-45fd-9a5e-9781aa1ced22' },
      { type: 'tool-call', toolCallId: id, toolName: 'run_shell_command', input: { command: 'ls' } },
      {
        type: 'tool-result',
        toolCallId: id,
        toolName: 'run_shell_command',
        output: 'Tool "run_shell_command" not found. Did you mean one of: "update_topic", "grep_search", "invoke_agent"?',
        isError: true,
      },
      { type: 'text', text: 'I could not run ' },
      { type: 'text', text: 'the shell here.' },
      { type: 'usage', inputTokens: 24, outputTokens: 10, totalTokens: 34 },
      { type: 'finish', finishReason: 'stop' },
    ]);
  });

  test('a BeforeTool hook that denies the tool yields an error tool result with its reason', async () => {
    const events = await streamOf('stream-hook-deny');
    expect(events[2]).toEqual({
      type: 'tool-result',
      toolCallId: 'read_file__read_file_1795423053150_0',
      toolName: 'read_file',
      output: 'Tool execution blocked: read_file is blocked by the svc policy',
      isError: true,
    });
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  });

  test('a resumed run reports the resumed session id', async () => {
    const first = await streamOf('stream-resume-first');
    const resumed = await streamOf('stream-resume', { ...REQUEST, resume: 'fc43e286-5cbf-4bca-9187-9eed1cf49a4a' });
    expect(first[0]).toEqual({ type: 'session', sessionId: 'fc43e286-5cbf-4bca-9187-9eed1cf49a4a' });
    expect(resumed).toEqual([
      { type: 'session', sessionId: 'fc43e286-5cbf-4bca-9187-9eed1cf49a4a' },
      { type: 'text', text: 'You gave me 42.' },
      { type: 'usage', inputTokens: 12, outputTokens: 5, totalTokens: 17 },
      { type: 'finish', finishReason: 'stop' },
    ]);
  });

  test('resuming an unknown session fails with cli_failed and the stderr text (exit 42, nothing on stdout)', async () => {
    expect(await streamOf('stream-resume-unknown')).toEqual([
      {
        type: 'error',
        code: 'cli_failed',
        message:
          'Error resuming session: Invalid session identifier "00000000-0000-4000-8000-000000000000".\n' +
          '  Searched for sessions in /scratch/home-gemini-cli/rec/.gemini/tmp/ws/chats.\n' +
          '  Use --list-sessions to see available sessions, then use --resume {number}, --resume {uuid}, or --resume latest.',
      },
      { type: 'finish', finishReason: 'error' },
    ]);
  });

  test('the session turn limit ends with a max_turns error and finish max-turns (exit 53)', async () => {
    const events = await streamOf('stream-max-turns');
    expect(events.slice(-3)).toEqual([
      { type: 'usage', inputTokens: 12, outputTokens: 5, totalTokens: 17 },
      { type: 'error', code: 'max_turns', message: MAX_TURNS },
      { type: 'finish', finishReason: 'max-turns' },
    ]);
    expect(events.filter((e) => e.type === 'tool-result')).toHaveLength(1);
  });

  test('no configured auth is cli_auth_failed from stderr alone (exit 41, stdout empty)', async () => {
    expect(await streamOf('stream-auth-missing')).toEqual([
      { type: 'error', code: 'cli_auth_failed', message: AUTH_MISSING },
      { type: 'finish', finishReason: 'error' },
    ]);
  });

  test('an API key the API rejects is cli_auth_failed from the result line (exit 144 = 400 mod 256)', async () => {
    expect(await streamOf('stream-api-key-invalid')).toEqual([
      { type: 'session', sessionId: '234cfd8f-6d56-4650-8b20-438a646edd6f' },
      { type: 'usage', inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      { type: 'error', code: 'cli_auth_failed', message: `[API Error: ${API_KEY_INVALID_BODY}]` },
      { type: 'finish', finishReason: 'error' },
    ]);
  });

  test('an untrusted folder is cli_untrusted_folder with the colours stripped (exit 55)', async () => {
    expect(readRecording('stream-untrusted').stderr).toContain('\u001b[31m');
    expect(await streamOf('stream-untrusted')).toEqual([
      { type: 'error', code: 'cli_untrusted_folder', message: UNTRUSTED },
      { type: 'finish', finishReason: 'error' },
    ]);
  });

  test('SIGTERM to the launcher alone does not stop the CLI: the recorded run simply completes', async () => {
    const events = await streamOf('stream-sigterm-launcher');
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text).join('')).toBe(
      'one two three four five six seven eight nine ten',
    );
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  });

  test('a run killed mid-stream without a host cancel (exit 0, no result line) is cli_output_invalid', async () => {
    expect(await streamOf('stream-cancel')).toEqual([
      { type: 'session', sessionId: 'c640e6bf-ab88-4d72-9ef9-2587f3f0031e' },
      { type: 'text', text: 'one two three fo' },
      { type: 'error', code: 'cli_output_invalid', message: 'gemini exited without a result line' },
      { type: 'finish', finishReason: 'error' },
    ]);
  });

  test('text output (no -o) is not stream-json: each line is a logged warning, and the run has no result', async () => {
    const host = recordingHost('text-text');
    const adapter = await svcCliPlugin.createAdapter();
    const events: CliStreamEvent[] = [];
    for await (const event of cliStreamEvents(adapter.stream!(REQUEST, host.context()))) events.push(event);
    expect(events).toEqual([
      { type: 'error', code: 'cli_output_invalid', message: 'gemini exited without a result line' },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(host.logs).toEqual([
      { level: 'warn', message: 'gemini-cli stream: ignored a stdout line that is not a stream-json event: Hello from the scripted model.' },
    ]);
  });

  test('collecting the stream of the tool run gives the canonical result', async () => {
    const result = await collectCliQueryStream(await streamOf('stream-tool'));
    expect(result).toEqual({
      text: 'Let me read the file.The file says: alpha beta.',
      toolCalls: [{ toolCallId: 'read_file__read_file_1795423035553_0', toolName: 'read_file', input: { file_path: 'notes.txt' } }],
      toolResults: [{ toolCallId: 'read_file__read_file_1795423035553_0', toolName: 'read_file', output: '', isError: false }],
      usage: { inputTokens: 52, outputTokens: 12, totalTokens: 67 },
      sessionId: '4c5456ab-c27d-49ad-9dda-a9690c40f4e6',
      finishReason: 'stop',
      warnings: [],
    });
  });
});

describe('generate() over the recorded -o json runs', () => {
  test('plain text: the pretty-printed document gives text, session id and usage summed over models', async () => {
    expect(await generateOf('json-text')).toEqual({
      text: 'Hello from the scripted model.',
      toolCalls: [],
      toolResults: [],
      finishReason: 'stop',
      warnings: [],
      sessionId: 'd9737419-cf85-47e5-a376-f2a0cccc9ab9',
      usage: { inputTokens: 12, outputTokens: 5, totalTokens: 17 },
    });
  });

  test('a tool run keeps only the last turn text (the CLI drops the rest) and says that tools were counts only', async () => {
    expect(await generateOf('json-tool')).toEqual({
      text: 'The file says: alpha beta.',
      toolCalls: [],
      toolResults: [],
      finishReason: 'stop',
      warnings: ['gemini -o json reports tool calls only as counts (read_file ×1); stream() carries each call and its result'],
      sessionId: '5df8c9f7-606b-4c1c-8adc-a0195304f64b',
      usage: { inputTokens: 52, outputTokens: 12, totalTokens: 67 },
    });
  });

  test('the turn limit: stdout empty, the error object on stderr (printed twice) gives max-turns (exit 53)', async () => {
    expect(await generateOf('json-max-turns')).toEqual({
      text: '',
      toolCalls: [],
      toolResults: [],
      finishReason: 'max-turns',
      warnings: [],
      sessionId: '4e6655ec-71db-413a-ae07-6efc32d316ee',
      error: { code: 'max_turns', message: MAX_TURNS },
    });
  });

  test('no configured auth: cli_auth_failed from the stderr error object (exit 41)', async () => {
    expect(await generateOf('json-auth-missing')).toEqual({
      text: '',
      toolCalls: [],
      toolResults: [],
      finishReason: 'error',
      warnings: [],
      sessionId: '11bed82f-883a-46c2-86e0-9613acd92877',
      error: { code: 'cli_auth_failed', message: AUTH_MISSING },
    });
  });

  test('an API key the API rejects: cli_auth_failed from the stderr error object with code 400 (exit 144)', async () => {
    expect(await generateOf('json-api-key-invalid')).toEqual({
      text: '',
      toolCalls: [],
      toolResults: [],
      finishReason: 'error',
      warnings: [],
      sessionId: '931b1ceb-c050-41f8-a54b-83fb28806407',
      error: { code: 'cli_auth_failed', message: API_KEY_INVALID_BODY },
    });
  });

  test('an untrusted folder: cli_untrusted_folder from the exit code and the plain stderr text (exit 55)', async () => {
    expect(await generateOf('json-untrusted')).toEqual({
      text: '',
      toolCalls: [],
      toolResults: [],
      finishReason: 'error',
      warnings: [],
      error: { code: 'cli_untrusted_folder', message: UNTRUSTED },
    });
  });
});
