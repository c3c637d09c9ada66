import { createRealProcessHost } from '@svc-org/ai-sdk/testing';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { CodexAdapter } from '../src/codex-adapter.js';
import { STAND_IN } from './support/paths.js';
import { loadRecording } from './support/recordings.js';
import { PERMISSIONS } from './support/run-adapter.js';

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), 'svc-codex-stand-in-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function standIn(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(STAND_IN, args, { cwd: scratch, env: { ...process.env, ...env }, maxBuffer: 4 << 20 });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

describe('the codex stand-in executable', () => {
  test.each(['text', 'tool', 'auth-failure', 'hook-deny-bypass'])('replays %s byte for byte, exit code included', async (name) => {
    const recording = loadRecording(name);
    const result = await standIn(['exec', '--json', '--skip-git-repo-check', '--', 'anything'], { CODEX_FAKE_SCENARIO: name });
    expect(result).toEqual({ stdout: recording.stdout, stderr: recording.stderr, code: Number(recording.exit) });
  });

  test('picks the scenario from the prompt, and replays `debug models` (745 KB) exactly', async () => {
    expect((await standIn(['exec', '--json', '--skip-git-repo-check', '--', 'Run echo hi'])).stdout).toBe(loadRecording('tool').stdout);
    expect((await standIn(['debug', 'models'])).stdout).toBe(loadRecording('debug-models').stdout);
  });

  test('--version is recorded, and CODEX_FAKE_VERSION overrides it', async () => {
    expect((await standIn(['--version'])).stdout).toBe('codex-cli 0.169.0\n');
    expect((await standIn(['--version'], { CODEX_FAKE_VERSION: '0.170.1' })).stdout).toBe('codex-cli 0.170.1\n');
  });

  test('without --skip-git-repo-check outside a git work tree it fails like codex', async () => {
    const recording = loadRecording('not-git-repo');
    expect(await standIn(['exec', '--json', '--', 'hi'])).toEqual({ stdout: '', stderr: recording.stderr, code: 1 });
  });

  test('interactive mode: banner, one reply per line, exit 0 at EOF; the pid file gets its pid', async () => {
    const pidfile = join(scratch, 'interactive.pids');
    const child = spawn(STAND_IN, ['-m', 'gpt-5.5'], { cwd: scratch, env: { ...process.env, CODEX_FAKE_PIDFILE: pidfile } });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stdin.end('hello\nsecond line\n');
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stdout).toBe('codex stand-in (interactive), model gpt-5.5\ncodex> you said: hello\ncodex> you said: second line\n');
    expect(readFileSync(pidfile, 'utf8')).toBe(`${child.pid}\n`);
  });

  test('drives the adapter for real: generate() over the stand-in gives the recorded answer', async () => {
    const test = createRealProcessHost({ permissions: [...PERMISSIONS], cli: { command: STAND_IN, version: '0.169.0' }, platform: { homeDir: scratch } });
    const result = await new CodexAdapter().generate({ prompt: 'Say hello', cwd: scratch }, test.context());
    expect(result).toMatchObject({
      text: 'Hello from the scripted model.',
      reasoning: '**Greeting the user**',
      sessionId: '01a2078e-18b6-7f70-b162-254f546e8680',
      finishReason: 'stop',
      warnings: [],
    });
    const models = await new CodexAdapter().models(test.context());
    expect(models[0]).toMatchObject({ id: 'gpt-6.1-sol', default: true });
  });
});
