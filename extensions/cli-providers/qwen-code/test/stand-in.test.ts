// Runs the stand-in `qwen` (test/fake-clis/qwen/qwen) as a real process and checks that it replays
// the real CLI's recordings byte for byte, and that its interactive mode answers a line.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { RECORDINGS_DIR, STAND_IN } from './support/load-recording.js';

interface Run {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
}

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function start(args: string[], env: Record<string, string> = {}) {
  const child = spawn(STAND_IN, args, { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  const done = new Promise<Run>((resolve) =>
    child.on('close', (exitCode, signal) =>
      resolve({ stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr), exitCode, signal }),
    ),
  );
  const output = () => Buffer.concat(stdout).toString('utf8');
  return { child, done, output };
}

function run(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const started = start(args, env);
  started.child.stdin.end();
  return started.done;
}

function recorded(name: string) {
  const read = (part: string) => readFileSync(join(RECORDINGS_DIR, `${name}.${part}`));
  return { stdout: read('stdout'), stderr: read('stderr'), exitCode: Number(read('exitcode').toString().trim()) };
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('stand-in qwen replays real recordings byte for byte', () => {
  test.each([
    [['--version'], {}, 'version'],
    [['--prompt', 'Say hello', '--output-format', 'stream-json'], {}, 'stream-json-text'],
    [['--prompt=Say hello', '-o', 'json'], {}, 'json-text'],
    [['Say hello'], {}, 'text-text'],
    [['--prompt', 'Read hello.txt', '--output-format', 'stream-json'], {}, 'stream-json-tool'],
    [['--prompt', 'Read hello.txt', '--output-format', 'json', '--max-session-turns', '1'], {}, 'json-max-turns'],
    [['--prompt', 'Read hello.txt', '--output-format', 'stream-json', '--max-session-turns', '1'], {}, 'stream-json-max-turns'],
    [['--prompt', 'Again', '--output-format', 'stream-json', '--resume', '606f6d75-128e-4a79-874f-d2abc5e5f104'], {}, 'stream-json-resume'],
    [['--prompt', 'Again', '--output-format', 'stream-json', '--resume', 'not-a-session'], {}, 'stream-json-resume-unknown'],
    [['--prompt', 'Again', '--output-format', 'json', '--continue'], {}, 'json-continue'],
    [['--prompt', 'Hi', '--output-format', 'stream-json', '--model', 'qwen3-coder-plus'], {}, 'stream-json-model'],
    [['--prompt', 'Hi', '--output-format', 'stream-json', '--include-partial-messages'], {}, 'stream-json-partial'],
    [['--prompt', 'Hi', '--output-format', 'stream-json'], { QWEN_FAKE_SCENARIO: 'auth-401' }, 'stream-json-auth-401'],
    [['--prompt', 'the endpoint is unreachable', '-o', 'json'], {}, 'json-unreachable'],
    [['--prompt', 'unreachable', '-o', 'stream-json'], { QWEN_FAKE_RECORDING_VERSION: '0.21.2' }, 'stream-json-unreachable.0.21.2'],
  ] as [string[], Record<string, string>, string][])('qwen %j %j replays %s', async (args, env, name) => {
    const expected = recorded(name);
    const actual = await run(args, env);
    expect(actual.stdout.equals(expected.stdout)).toBe(true);
    expect(actual.stderr.equals(expected.stderr)).toBe(true);
    expect(actual.exitCode).toBe(expected.exitCode);
  });

  test('QWEN_FAKE_VERSION overrides the version it reports', async () => {
    const actual = await run(['--version'], { QWEN_FAKE_VERSION: '1.2.0' });
    expect(actual.stdout.toString()).toBe('1.2.0\n');
    expect(actual.exitCode).toBe(0);
  });

  test('a format without a recording is refused on stderr with exit 2', async () => {
    const actual = await run(['--prompt', 'think', '-o', 'text']);
    expect(actual.stdout.length).toBe(0);
    expect(actual.stderr.toString()).toContain('no recording named text-thinking');
    expect(actual.exitCode).toBe(2);
  });
});

describe('stand-in qwen hang and pid file', () => {
  test('hang prints the init line, never exits, and records its pid', async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'qwen-stand-in-')), 'pids');
    const started = start(['--prompt', 'please hang', '--output-format', 'stream-json'], { QWEN_FAKE_PIDFILE: pidFile });
    await until(() => started.output().endsWith('\n'), 'the init line');
    const initLine = readFileSync(join(RECORDINGS_DIR, 'stream-json-text.stdout'), 'utf8').split('\n')[0];
    expect(started.output()).toBe(`${initLine}\n`);
    expect(readFileSync(pidFile, 'utf8')).toBe(`${started.child.pid}\n`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(started.child.exitCode).toBeNull();
    started.child.kill('SIGTERM');
    expect((await started.done).signal).toBe('SIGTERM');
  });
});

describe('stand-in qwen interactive mode', () => {
  test('answers each line and exits 0 on /quit', async () => {
    const started = start([]);
    await until(() => started.output().endsWith('qwen> '), 'the prompt');
    started.child.stdin.write('hello there\n');
    await until(() => started.output().includes('You said: hello there\n'), 'the reply');
    started.child.stdin.write('/quit\n');
    const finished = await started.done;
    expect(finished.exitCode).toBe(0);
    expect(finished.stdout.toString()).toBe(
      'Qwen Code 0.24.4 (test stand-in, interactive)\n' +
        'Type a line; /quit or end of input exits.\n' +
        'qwen> You said: hello there\nqwen> Bye.\n',
    );
  });

  test('names the resumed session in its banner and exits 0 at end of input', async () => {
    const started = start(['--model', 'qwen3-coder-plus', '--resume', 'abc-123', '--approval-mode', 'plan']);
    started.child.stdin.end('one\n');
    const finished = await started.done;
    expect(finished.exitCode).toBe(0);
    expect(finished.stdout.toString()).toBe(
      'Qwen Code 0.24.4 (test stand-in, interactive)\nModel: qwen3-coder-plus\nResumed session abc-123\n' +
        'Type a line; /quit or end of input exits.\nqwen> You said: one\nqwen> \n',
    );
  });
});
