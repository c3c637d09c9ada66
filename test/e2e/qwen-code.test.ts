// The Qwen Code community sample through the real `svc`, with the stand-in `qwen` (real recorded
// output of qwen 0.24.4 and 0.21.2, replayed byte for byte) first on PATH.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import * as pty from 'node-pty';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSvcSandbox, REPO_ROOT, SVC_BIN, waitFor, type SvcSandbox } from '../support/svc-process.js';

const QWEN_STAND_IN = join(REPO_ROOT, 'test/fake-clis/qwen');
const QWEN_PROVIDER = join(REPO_ROOT, 'extensions/cli-providers/qwen-code');
const ID = 'svc-community.qwen-code';
let svc: SvcSandbox;

beforeAll(async () => {
  svc = createSvcSandbox([QWEN_STAND_IN]);
  expect((await svc.run(['ext', 'dev', 'add', QWEN_PROVIDER])).code).toBe(0);
  const enabled = await svc.run(['ext', 'enable', ID, '--yes']);
  expect(enabled.stdout).toContain('process:spawn');
  expect(enabled.stdout).toContain('network:provider');
  expect(enabled.code).toBe(0);
});
afterAll(() => svc.cleanup());

const events = (stdout: string) => stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; [k: string]: unknown });

describe('queries', () => {
  test('streams the answer and reports the session', async () => {
    const result = await svc.run(['query', '--provider', ID, 'Say hello']);
    expect(result.code).toBe(0);
    expect(result.stdout.length).toBeGreaterThan(0);
    expect(result.stderr).toContain('session 606f6d75-128e-4a79-874f-d2abc5e5f104');
  });

  test('--json prints canonical events only', async () => {
    const result = await svc.run(['query', '--json', '--provider', ID, 'Say hello']);
    const got = events(result.stdout);
    expect(got[0]).toEqual({ type: 'session', sessionId: '606f6d75-128e-4a79-874f-d2abc5e5f104' });
    expect(got.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    expect(got.every((e) => ['text', 'reasoning', 'tool-call', 'tool-result', 'usage', 'session', 'finish', 'error'].includes(e.type))).toBe(true);
  });

  test('a tool call and its result are paired by id', async () => {
    const got = events((await svc.run(['query', '--json', '--provider', ID, 'read hello.txt with a tool'])).stdout);
    const call = got.find((e) => e.type === 'tool-call');
    const result = got.find((e) => e.type === 'tool-result');
    expect(call?.toolName).toBe('read_file');
    expect(result?.toolCallId).toBe(call?.toolCallId);
  });

  test('--resume keeps the session id', async () => {
    const got = events((await svc.run(['query', '--json', '--provider', ID, '--resume', '606f6d75-128e-4a79-874f-d2abc5e5f104', 'and again'])).stdout);
    expect(got[0]).toEqual({ type: 'session', sessionId: '606f6d75-128e-4a79-874f-d2abc5e5f104' });
  });

  test('--max-turns ends with max-turns when qwen exits 53 without a result line', async () => {
    const result = await svc.run(['query', '--json', '--provider', ID, '--max-turns', '1', 'read hello.txt with a tool']);
    expect(events(result.stdout).at(-1)).toEqual({ type: 'finish', finishReason: 'max-turns' });
  });

  test('an API error reported as success (is_error false, qwen 0.21.2) is an error, exit 1', async () => {
    const result = await svc.run(['query', '--provider', ID, 'unreachable endpoint'], { env: { QWEN_FAKE_RECORDING_VERSION: '0.21.2' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error cli_api_error');
    expect(result.stdout).not.toContain('[API Error:');
  });

  test('an authentication failure has its own code', async () => {
    const result = await svc.run(['query', '--provider', ID, 'unauthorized please']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error cli_auth_failed');
  });

  test('Ctrl-C cancels the query and kills qwen', async () => {
    const pidfile = join(mkdtempSync(join(tmpdir(), 'qwen-pid-')), 'pids');
    const child = svc.start(['query', '--provider', ID, 'hang here'], { env: { QWEN_FAKE_PIDFILE: pidfile } });
    const pid = await waitFor(() => (existsSync(pidfile) ? Number(readFileSync(pidfile, 'utf8').trim()) : undefined), 15_000, 'qwen to start');
    child.kill('SIGINT');
    expect(await new Promise((resolve) => child.once('close', resolve))).toBe(130);
    await waitFor(() => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    }, 5_000, 'qwen to be killed');
  });

  test('an incompatible qwen version fails preflight with its code', async () => {
    // The version probe sees only the worker's scrubbed environment: the older qwen comes first on PATH.
    const bin = join(svc.home, 'qwen-0.17.2');
    mkdirSync(bin);
    writeFileSync(join(bin, 'qwen'), '#!/bin/sh\necho 0.17.2\n', { mode: 0o755 });
    const result = await svc.run(['query', '--provider', ID, 'hi'], { env: { PATH: `${bin}${delimiter}${svc.env.PATH}` } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error cli_incompatible');
  });

  test('models is refused: the sample does not declare it', async () => {
    const result = await svc.run(['models', '--provider', ID]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error capability_unsupported');
  });
});

test('an interactive session through the host PTY', async () => {
  const term = pty.spawn(process.execPath, [SVC_BIN, 'session', '--provider', ID], { cols: 100, rows: 30, cwd: REPO_ROOT, env: svc.env as Record<string, string> });
  let screen = '';
  term.onData((data) => (screen += data));
  const exited = new Promise<{ exitCode: number }>((resolve) => term.onExit(resolve));
  await waitFor(() => screen.includes('qwen> '), 15_000, 'the qwen prompt');
  term.write('what is svc?\r');
  await waitFor(() => screen.includes('You said: what is svc?'), 5_000, 'the reply');
  term.write('/quit\r');
  expect((await exited).exitCode).toBe(0);
});
