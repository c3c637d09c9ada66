// Runs the stand-in CLI (test/fake-clis/gemini-cli/gemini) as a real process: it must print the
// recordings of the real CLI byte for byte, and the adapter must drive it like the real one.
import { cliStreamEvents, collectCliQueryStream, type CliStreamEvent } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { svcCliPlugin } from '../src/index.js';
import { ALL_PERMISSIONS, readRecording, STAND_IN } from './recording-host.js';

const TRUSTED = { GEMINI_CLI_TRUST_WORKSPACE: 'true' };

function run(args: string[], env: Record<string, string> = {}, input?: string) {
  const { GEMINI_FAKE_SCENARIO: _s, GEMINI_FAKE_VERSION: _v, GEMINI_CLI_TRUST_WORKSPACE: _t, ...base } = process.env;
  const result = spawnSync(STAND_IN, args, { env: { ...base, ...env }, input: input ?? '', timeout: 10_000 });
  return { stdout: result.stdout.toString('utf8'), stderr: result.stderr.toString('utf8'), exitCode: result.status };
}

describe('the gemini stand-in', () => {
  test('prints the recorded --version, or GEMINI_FAKE_VERSION', () => {
    expect(run(['--version'])).toEqual(readRecording('version'));
    expect(run(['-v'], { GEMINI_FAKE_VERSION: '0.99.1' })).toEqual({ stdout: '0.99.1\n', stderr: '', exitCode: 0 });
  });

  test('replays a headless stream-json query byte for byte', () => {
    const out = run(['-m', 'gemini-2.5-flash', '-o', 'stream-json', '--prompt=Say hello.'], TRUSTED);
    expect(out).toEqual(readRecording('stream-text'));
    expect(Buffer.from(out.stdout)).toEqual(readFileSync(join(STAND_IN, '../recordings/stream-text.stdout')));
  });

  test('picks scenarios by prompt keyword, by resume id, by GEMINI_FAKE_SCENARIO, and refuses an untrusted folder', () => {
    expect(run(['-o', 'json', '-p', 'Stop at max turns'], TRUSTED)).toEqual(readRecording('json-max-turns'));
    expect(run(['-o', 'stream-json', '-p', 'Read notes.txt'], TRUSTED)).toEqual(readRecording('stream-tool'));
    expect(run(['-r', 'fc43e286-5cbf-4bca-9187-9eed1cf49a4a', '-o', 'stream-json', '-p', 'Which?'], TRUSTED)).toEqual(
      readRecording('stream-resume'),
    );
    expect(run(['-r', '00000000-0000-4000-8000-000000000000', '-o', 'stream-json', '-p', 'x'], TRUSTED)).toEqual(
      readRecording('stream-resume-unknown'),
    );
    expect(run(['-o', 'stream-json', '-p', 'hi'], { ...TRUSTED, GEMINI_FAKE_SCENARIO: 'api-key-invalid' })).toEqual(
      readRecording('stream-api-key-invalid'),
    );
    expect(run(['-o', 'stream-json', '-p', 'hi'])).toEqual(readRecording('stream-untrusted'));
    expect(run(['-o', 'stream-json', '-p', 'hi', '--skip-trust']).exitCode).toBe(0);
  });

  test('appends its pid to GEMINI_FAKE_PIDFILE, and the hang scenario prints one line and never exits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gemini-stand-in-'));
    try {
      const pidfile = join(dir, 'pids');
      const child = spawn(STAND_IN, ['-o', 'stream-json', '-p', 'please hang'], {
        env: { ...process.env, ...TRUSTED, GEMINI_FAKE_PIDFILE: pidfile },
      });
      const firstLine = await new Promise<string>((resolve) => {
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
          if (text.includes('\n')) resolve(text);
        });
      });
      expect(firstLine).toBe(readRecording('stream-text').stdout.split('\n')[0] + '\n');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(child.exitCode).toBeNull();
      expect(readFileSync(pidfile, 'utf8')).toBe(`${child.pid}\n`);
      const exited = new Promise((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
      child.kill('SIGTERM');
      expect(await exited).toBe('SIGTERM');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('without -p it is interactive: a banner, then one reply per line until EOF', () => {
    const out = run(['-m', 'gemini-2.5-flash', '-r', 'latest'], {}, 'first\nsecond\n');
    expect(out).toEqual({
      stdout:
        'Gemini CLI stand-in 0.61.0, interactive (resumed session latest). Type a message.\n' +
        'gemini> you said: first\ngemini> you said: second\nGoodbye.\n',
      stderr: '',
      exitCode: 0,
    });
  });

  test('the adapter drives it like the real CLI: its arguments and envPatch pick the recorded run', async () => {
    const host = createTestHost({
      permissions: ALL_PERMISSIONS,
      cli: { command: STAND_IN, version: '0.61.0' },
      config: { trustWorkspace: true, model: 'gemini-2.5-flash' },
      spawn: (spec) => run(spec.args, spec.envPatch) as { stdout: string; stderr: string; exitCode: number },
    });
    const adapter = await svcCliPlugin.createAdapter();
    const events: CliStreamEvent[] = [];
    for await (const event of cliStreamEvents(adapter.stream!({ prompt: 'Read notes.txt, please.', cwd: '/w' }, host.context()))) events.push(event);
    const result = await collectCliQueryStream(events);
    expect(result.text).toBe('Let me read the file.The file says: alpha beta.');
    expect(result.toolResults).toHaveLength(1);
    const generated = await adapter.generate({ prompt: 'Say hello.', cwd: '/w' }, host.context());
    expect(generated.text).toBe('Hello from the scripted model.');
  });
});
