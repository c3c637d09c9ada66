import { SessionProcessSchema, SvcError } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { describe, expect, test } from 'vitest';
import { QwenCodeAdapter } from '../src/qwen-code-adapter.js';
import { collectEvents } from './support/collect-events.js';
import { recordingScript } from './support/load-recording.js';

const cwd = '/work/project';

async function streamArgs(request: Parameters<QwenCodeAdapter['stream']>[0]) {
  const testHost = createTestHost({ cli: { command: '/usr/local/bin/qwen' }, spawn: () => recordingScript('stream-json-text') });
  await collectEvents(new QwenCodeAdapter().stream(request, testHost.context()));
  expect(testHost.spawned).toHaveLength(1);
  return testHost.spawned[0]!;
}

async function generateArgs(request: Parameters<QwenCodeAdapter['generate']>[0]) {
  const testHost = createTestHost({ cli: { command: '/usr/local/bin/qwen' }, spawn: () => recordingScript('json-text') });
  await new QwenCodeAdapter().generate(request, testHost.context());
  return testHost.spawned[0]!;
}

describe('query arguments', () => {
  test('stream() runs the resolved CLI headless with --prompt and --output-format stream-json, stdin closed', async () => {
    expect(await streamArgs({ prompt: 'Say hello', cwd })).toEqual({
      command: '/usr/local/bin/qwen',
      args: ['--prompt', 'Say hello', '--output-format', 'stream-json'],
      cwd,
      stdin: '',
    });
  });

  test('generate() asks for --output-format json', async () => {
    expect((await generateArgs({ prompt: 'Say hello', cwd })).args).toEqual(['--prompt', 'Say hello', '--output-format', 'json']);
  });

  test('maps model, resume, max turns, then the host base args last', async () => {
    const spec = await streamArgs({
      prompt: 'Say hello',
      cwd,
      model: 'qwen3-coder-plus',
      resume: '606f6d75-128e-4a79-874f-d2abc5e5f104',
      maxTurns: 3,
      baseArgs: ['--approval-mode', 'plan'],
    });
    expect(spec.args).toEqual([
      '--prompt', 'Say hello', '--output-format', 'stream-json',
      '--model', 'qwen3-coder-plus',
      '--resume', '606f6d75-128e-4a79-874f-d2abc5e5f104',
      '--max-session-turns', '3',
      '--approval-mode', 'plan',
    ]);
  });

  test('maps continue to --continue', async () => {
    expect((await generateArgs({ prompt: 'Again', cwd, continue: true })).args).toEqual([
      '--prompt', 'Again', '--output-format', 'json', '--continue',
    ]);
  });

  test('a resume id wins over continue', async () => {
    expect((await streamArgs({ prompt: 'Again', cwd, resume: 'abc', continue: true })).args).toEqual([
      '--prompt', 'Again', '--output-format', 'stream-json', '--resume', 'abc',
    ]);
  });

  test('a prompt that starts with a dash is passed as --prompt=<prompt>, which the CLI cannot mistake for a flag', async () => {
    expect((await streamArgs({ prompt: '-v what is this', cwd })).args).toEqual([
      '--prompt=-v what is this', '--output-format', 'stream-json',
    ]);
  });

  test('a prompt with shell syntax is one argument, untouched', async () => {
    const prompt = 'hello; rm -rf ~ && echo $(whoami) `id` > /tmp/x | cat';
    expect((await streamArgs({ prompt, cwd })).args.slice(0, 2)).toEqual(['--prompt', prompt]);
  });

  test.each([
    [{ prompt: '', cwd }, 'request.prompt must be a non-empty string'],
    [{ prompt: 'x', cwd, maxTurns: 0 }, 'request.maxTurns must be a positive integer'],
    [{ prompt: 'x', cwd, maxTurns: 1.5 }, 'request.maxTurns must be a positive integer'],
  ])('rejects an invalid request %j before spawning', async (request, message) => {
    const testHost = createTestHost({ cli: { command: 'qwen' } });
    const failure = await new QwenCodeAdapter().generate(request, testHost.context()).catch((e: unknown) => e);
    expect(SvcError.hasCode(failure) && failure.code).toBe('invalid_request');
    expect((failure as Error).message).toBe(message);
    await expect(collectEvents(new QwenCodeAdapter().stream(request, testHost.context()))).rejects.toThrow(message);
    expect(testHost.spawned).toEqual([]);
  });
});

describe('session process', () => {
  const adapter = new QwenCodeAdapter();
  const context = createTestHost({ cli: { command: '/home/me/.local/bin/qwen' } }).context();

  test('a fresh session is the interactive CLI in the request cwd, with no environment changes', () => {
    const process = adapter.buildSessionProcess({ mode: 'fresh', cwd }, context);
    expect(process).toEqual({ command: '/home/me/.local/bin/qwen', args: [], cwd, envPatch: {} });
    expect(SessionProcessSchema.parse(process)).toEqual(process);
  });

  test('maps the model and puts the host base args last', () => {
    expect(
      adapter.buildSessionProcess({ mode: 'fresh', cwd, model: 'qwen3-coder-plus', baseArgs: ['--yolo'] }, context).args,
    ).toEqual(['--model', 'qwen3-coder-plus', '--yolo']);
  });

  test('resuming with an id passes --resume <id>', () => {
    expect(adapter.buildSessionProcess({ mode: 'resume', sessionId: 'abc-123', cwd }, context).args).toEqual([
      '--resume', 'abc-123',
    ]);
  });

  test('resuming without an id continues the most recent session instead of opening the picker', () => {
    expect(adapter.buildSessionProcess({ mode: 'resume', cwd, model: 'm' }, context).args).toEqual([
      '--model', 'm', '--continue',
    ]);
  });

  test('is a structured process, never a shell command line', () => {
    const process = adapter.buildSessionProcess({ mode: 'resume', sessionId: 'x; rm -rf /', cwd }, context);
    expect(typeof process).toBe('object');
    expect(process.command).toBe('/home/me/.local/bin/qwen');
    expect(process.args).toEqual(['--resume', 'x; rm -rf /']);
  });
});
