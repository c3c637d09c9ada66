import { describe, expect, test } from 'vitest';
import type { JsonValue } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { CodexAdapter } from '../src/codex-adapter.js';
import { recordingScript } from './support/recordings.js';
import { PERMISSIONS } from './support/run-adapter.js';

const config: Record<string, JsonValue> = {
  model: 'gpt-5.5',
  approvalMode: 'bypass',
  sandbox: 'workspace-write',
  reasoningEffort: 'high',
  extraArgs: ['--search'],
};

function host(settings: Record<string, JsonValue> = {}) {
  return createTestHost({
    permissions: [...PERMISSIONS],
    cli: { command: '/usr/local/bin/codex', version: '0.169.0' },
    config: settings,
    spawn: () => recordingScript('text'),
  });
}

describe('terminal sessions (buildSessionProcess)', () => {
  test('a fresh session is the interactive CLI with the hook-trust bypass, no shell string', async () => {
    const test = host();
    const process = await new CodexAdapter().buildSessionProcess({ mode: 'fresh', cwd: '/work/project' }, test.context());
    expect(process).toEqual({
      command: '/usr/local/bin/codex',
      args: ['--dangerously-bypass-hook-trust'],
      cwd: '/work/project',
      envPatch: {},
    });
  });

  test('settings, the request model and base args map to flags in that order', async () => {
    const test = host(config);
    const process = await new CodexAdapter().buildSessionProcess(
      { mode: 'fresh', cwd: '/w', model: 'gpt-6.1-sol', baseArgs: ['--no-alt-screen'] },
      test.context(),
    );
    expect(process.args).toEqual([
      '--dangerously-bypass-hook-trust',
      '--dangerously-bypass-approvals-and-sandbox',
      '-c',
      'sandbox_mode="workspace-write"',
      '-c',
      'model_reasoning_effort="high"',
      '-m',
      'gpt-6.1-sol',
      '--search',
      '--no-alt-screen',
    ]);
  });

  test('resuming an id uses `codex resume <options> <id>`', async () => {
    const test = host({ model: 'gpt-5.5' });
    const process = await new CodexAdapter().buildSessionProcess(
      { mode: 'resume', sessionId: '01a2078e-18b6-7f70-b162-254f546e8680', cwd: '/w' },
      test.context(),
    );
    expect(process.args).toEqual(['resume', '--dangerously-bypass-hook-trust', '-m', 'gpt-5.5', '01a2078e-18b6-7f70-b162-254f546e8680']);
  });

  test('resuming without an id continues the most recent session: `codex resume --last`', async () => {
    const process = await new CodexAdapter().buildSessionProcess({ mode: 'resume', cwd: '/w' }, host().context());
    expect(process.args).toEqual(['resume', '--last', '--dangerously-bypass-hook-trust']);
  });

  test('the API key goes to the child only, as CODEX_API_KEY', async () => {
    const process = await new CodexAdapter().buildSessionProcess({ mode: 'fresh', cwd: '/w' }, host({ apiKey: 'sk-test-secret-1234' }).context());
    expect(process.envPatch).toEqual({ CODEX_API_KEY: 'sk-test-secret-1234' });
    expect(process.args.join(' ')).not.toContain('sk-test-secret-1234');
  });
});

describe('queries (codex exec --json)', () => {
  async function specOf(request: Record<string, unknown>, settings: Record<string, JsonValue> = {}) {
    const test = host(settings);
    await new CodexAdapter().generate({ prompt: 'Say hello', cwd: '/work/project', ...request }, test.context());
    return test.spawned[0]!;
  }

  test('a fresh query: exec --json --skip-git-repo-check, the prompt after --, stdin closed', async () => {
    expect(await specOf({})).toEqual({
      command: '/usr/local/bin/codex',
      args: ['exec', '--json', '--skip-git-repo-check', '--', 'Say hello'],
      cwd: '/work/project',
      envPatch: {},
      stdin: '',
    });
  });

  test('a prompt that starts with a dash stays a prompt', async () => {
    expect((await specOf({ prompt: '--help me' })).args.slice(-2)).toEqual(['--', '--help me']);
  });

  test('resume: exec resume <options> <id> -- <prompt>', async () => {
    expect((await specOf({ resume: 'abc-123', model: 'gpt-5.5', baseArgs: ['-c', 'x=1'] })).args).toEqual([
      'exec',
      'resume',
      '--json',
      '--skip-git-repo-check',
      '-m',
      'gpt-5.5',
      '-c',
      'x=1',
      'abc-123',
      '--',
      'Say hello',
    ]);
  });

  test('continue: exec resume --last', async () => {
    expect((await specOf({ continue: true })).args).toEqual(['exec', 'resume', '--last', '--json', '--skip-git-repo-check', '--', 'Say hello']);
  });

  test('settings apply to queries too; the sandbox goes through -c because exec resume has no -s', async () => {
    expect((await specOf({ resume: 'abc' }, config)).args).toEqual([
      'exec',
      'resume',
      '--json',
      '--skip-git-repo-check',
      '--dangerously-bypass-approvals-and-sandbox',
      '-c',
      'sandbox_mode="workspace-write"',
      '-c',
      'model_reasoning_effort="high"',
      '-m',
      'gpt-5.5',
      '--search',
      'abc',
      '--',
      'Say hello',
    ]);
  });

  test('codex has no max turns: maxTurns adds no flag and a warning says it was ignored', async () => {
    const test = host();
    const result = await new CodexAdapter().generate({ prompt: 'Say hello', cwd: '/w', maxTurns: 3 }, test.context());
    expect(test.spawned[0]!.args).toEqual(['exec', '--json', '--skip-git-repo-check', '--', 'Say hello']);
    expect(result.warnings).toEqual(['codex has no max-turns option; maxTurns was ignored']);
  });

  test('a setting outside its enum is refused with a message naming the option, not the value', async () => {
    const test = host({ sandbox: 'yolo-mode' });
    await expect(new CodexAdapter().generate({ prompt: 'p', cwd: '/w' }, test.context())).rejects.toMatchObject({
      code: 'invalid_request',
      message: 'config.sandbox must be one of "default", "read-only", "workspace-write", "danger-full-access"',
    });
    expect(test.spawned).toEqual([]);
  });
});
