import { SessionProcessSchema, type JsonValue, type SessionRequest } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { describe, expect, test } from 'vitest';
import { svcCliPlugin } from '../src/index.js';
import { asScript, readRecording } from './support/recordings.js';
import { replayGenerate, replayStream } from './support/replay.js';

async function session(request: SessionRequest, config: Record<string, JsonValue> = {}) {
  const host = createTestHost({ permissions: ['process:spawn', 'config:provider'], config, cli: { command: '/opt/bin/claude' } });
  const adapter = await svcCliPlugin.createAdapter();
  return adapter.buildSessionProcess(request, host.context());
}

const TEXT = asScript(readRecording('stream-text'));

describe('terminal sessions', () => {
  test('a fresh session is the interactive CLI with no arguments, in the cwd', async () => {
    const process = await session({ mode: 'fresh', cwd: '/work/project' });
    expect(process).toEqual({ command: '/opt/bin/claude', args: [], cwd: '/work/project', envPatch: {} });
    expect(SessionProcessSchema.parse(process)).toBeTruthy();
  });

  test('a resumed session uses --resume <id>; without an id, --continue', async () => {
    expect((await session({ mode: 'resume', sessionId: '421b4f72-8e90-43b0-8e34-6755d5c617e5', cwd: '/w' })).args).toEqual([
      '--resume',
      '421b4f72-8e90-43b0-8e34-6755d5c617e5',
    ]);
    expect((await session({ mode: 'resume', cwd: '/w' })).args).toEqual(['--continue']);
  });

  test('model, permission mode, extra args and base args come in that order, base args last', async () => {
    const process = await session(
      { mode: 'resume', sessionId: 'abc', cwd: '/w', model: 'sonnet', baseArgs: ['--add-dir', '/data'] },
      { model: 'opus', permissionMode: 'acceptEdits', extraArgs: ['--effort', 'high'] },
    );
    expect(process.args).toEqual(['--resume', 'abc', '--model', 'sonnet', '--permission-mode', 'acceptEdits', '--effort', 'high', '--add-dir', '/data']);
  });

  test('the configured model is used when the request names none', async () => {
    expect((await session({ mode: 'fresh', cwd: '/w' }, { model: 'claude-fable-5' })).args).toEqual(['--model', 'claude-fable-5']);
  });

  test('the API key goes to the environment only', async () => {
    const process = await session({ mode: 'fresh', cwd: '/w' }, { apiKey: 'sk-ant-secret-value-1234' });
    expect(process.envPatch).toEqual({ ANTHROPIC_API_KEY: 'sk-ant-secret-value-1234' });
    expect(process.args.join(' ')).not.toContain('sk-ant');
  });

  test('a session id or model that looks like a flag is refused', async () => {
    await expect(session({ mode: 'resume', sessionId: '--dangerously-skip-permissions', cwd: '/w' })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(session({ mode: 'fresh', cwd: '/w', model: '-x' })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  test('invalid settings are refused with the setting named', async () => {
    await expect(session({ mode: 'fresh', cwd: '/w' }, { permissionMode: 'yolo' })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('config.permissionMode'),
    });
    await expect(session({ mode: 'fresh', cwd: '/w' }, { extraArgs: '--verbose' })).rejects.toMatchObject({
      code: 'invalid_request',
      message: 'config.extraArgs must be an array of strings',
    });
  });
});

describe('queries', () => {
  test('stream() runs -p with stream-json, --verbose and partial messages, the prompt on stdin', async () => {
    const { spawned } = await replayStream(TEXT, { prompt: '--not-a-flag: say hello', cwd: '/work/project' });
    expect(spawned).toEqual([
      {
        command: '/usr/local/bin/claude',
        args: ['-p', '--output-format', 'stream-json', '--verbose', '--include-partial-messages'],
        cwd: '/work/project',
        envPatch: {},
        stdin: '--not-a-flag: say hello',
      },
    ]);
  });

  test('generate() runs the same without partial messages', async () => {
    const { spawned } = await replayGenerate(TEXT);
    expect(spawned[0]!.args).toEqual(['-p', '--output-format', 'stream-json', '--verbose']);
  });

  test('resume, model, permission mode, max turns, extra and base args map to their flags', async () => {
    const { spawned } = await replayGenerate(
      TEXT,
      { prompt: 'hi', cwd: '/w', resume: '421b4f72-8e90-43b0-8e34-6755d5c617e5', model: 'haiku', maxTurns: 3, baseArgs: ['--add-dir', '/data'] },
      { permissionMode: 'plan', extraArgs: ['--effort', 'low'], apiKey: 'sk-ant-secret-value-1234' },
    );
    expect(spawned[0]).toMatchObject({
      args: [
        '-p',
        '--output-format',
        'stream-json',
        '--verbose',
        '--resume',
        '421b4f72-8e90-43b0-8e34-6755d5c617e5',
        '--model',
        'haiku',
        '--permission-mode',
        'plan',
        '--max-turns',
        '3',
        '--effort',
        'low',
        '--add-dir',
        '/data',
      ],
      envPatch: { ANTHROPIC_API_KEY: 'sk-ant-secret-value-1234' },
    });
  });

  test('continue maps to --continue, and resume wins over it', async () => {
    expect((await replayGenerate(TEXT, { prompt: 'hi', cwd: '/w', continue: true })).spawned[0]!.args).toContain('--continue');
    const both = (await replayGenerate(TEXT, { prompt: 'hi', cwd: '/w', continue: true, resume: 'abc' })).spawned[0]!.args;
    expect(both).toContain('--resume');
    expect(both).not.toContain('--continue');
  });

  test('a max turns that is not a positive integer is refused before anything runs', async () => {
    await expect(replayGenerate(TEXT, { prompt: 'hi', cwd: '/w', maxTurns: 0 })).rejects.toMatchObject({
      code: 'invalid_request',
      message: 'maxTurns must be a positive integer',
    });
  });
});
