import { describe, expect, test } from 'vitest';
import { CliProcess, describeCliExit, redactSecrets, secretValues, StderrTail } from '../src/index.js';
import { createTestHost } from '../src/testing/index.js';

describe('CliProcess', () => {
  test('reads stdout as lines across chunk borders while stderr drains into its tail', async () => {
    const test = createTestHost({ spawn: () => ({ stdout: ['{"a":', '1}\n{"b"', ':2}\r', '\n'], stderr: ['warn 1\n', 'boom\n'], exitCode: 2 }) });
    const run = await CliProcess.start(test.context(), { command: 'cli', args: [] });
    const lines: string[] = [];
    for await (const line of run.lines()) lines.push(line);
    const end = await run.wait();
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(end).toMatchObject({ exitCode: 2, endedBy: 'exited' });
    expect(end.stderr.tail()).toBe('warn 1\nboom');
    expect(test.processes[0]!.kills).toEqual([]);
  });

  test('kills the CLI when the consumer stops reading early', async () => {
    const test = createTestHost({ spawn: () => ({ stdout: ['one\n', 'two\n'], hang: true }) });
    const run = await CliProcess.start(test.context(), { command: 'cli', args: [] });
    for await (const line of run.lines()) {
      expect(line).toBe('one');
      break;
    }
    expect(test.processes[0]!.kills).toEqual(['SIGTERM']);
    expect((await run.wait()).endedBy).toBe('stopped');
  });

  test('reads stdout as one batch of lines per chunk, with the same lines as lines()', async () => {
    const stdout = ['{"a":1}\n{"b"', ':2}\r', '\n\n{"c":3}\n{"d":4}\n', 'tail'];
    const test = createTestHost({ spawn: () => ({ stdout, exitCode: 0 }) });
    const run = await CliProcess.start(test.context(), { command: 'cli', args: [] });
    const batches: string[][] = [];
    for await (const batch of run.lineBatches()) batches.push(batch);
    expect(batches).toEqual([['{"a":1}'], ['{"b":2}', '', '{"c":3}', '{"d":4}'], ['tail']]);
    const again = await CliProcess.start(createTestHost({ spawn: () => ({ stdout, exitCode: 0 }) }).context(), { command: 'cli', args: [] });
    const lines: string[] = [];
    for await (const line of again.lines()) lines.push(line);
    expect(lines).toEqual(batches.flat());
  });

  test('kills the CLI when the consumer leaves a batch early', async () => {
    const test = createTestHost({ spawn: () => ({ stdout: ['one\ntwo\n', 'three\n'], hang: true }) });
    const run = await CliProcess.start(test.context(), { command: 'cli', args: [] });
    const seen: string[] = [];
    read: for await (const batch of run.lineBatches()) {
      for (const line of batch) {
        seen.push(line);
        if (line === 'one') break read;
      }
    }
    expect(seen).toEqual(['one']);
    expect(test.processes[0]!.kills).toEqual(['SIGTERM']);
    expect((await run.wait()).endedBy).toBe('stopped');
  });

  test('tells a cancel from a deadline', async () => {
    const test = createTestHost({ spawn: () => ({ stdout: 'partial\n', hang: true }) });
    const cancelled = test.call();
    const first = await CliProcess.start(cancelled.context, { command: 'cli', args: [] });
    setTimeout(() => cancelled.cancel(), 5);
    expect(await first.wait()).toMatchObject({ endedBy: 'cancelled', killedBy: 'cancelled', exitCode: null });

    const late = test.call();
    const second = await CliProcess.start(late.context, { command: 'cli', args: [] });
    setTimeout(() => late.expireDeadline(), 5);
    expect(await second.wait()).toMatchObject({ endedBy: 'timeout', killedBy: 'timeout' });
  });

  test('a cancel that races a clean exit still reads as cancelled', async () => {
    const test = createTestHost({ spawn: () => ({ stdout: 'done\n' }) });
    const call = test.call();
    const run = await CliProcess.start(call.context, { command: 'cli', args: [] });
    for await (const line of run.lines()) expect(line).toBe('done');
    await run.child.exited;
    call.cancel();
    expect((await run.wait()).endedBy).toBe('cancelled');
  });
});

describe('StderrTail', () => {
  test('keeps the end, drops ignored and empty lines, and marks a cut', () => {
    const tail = new StderrTail({ limit: 64, ignore: [/^Warning: 256-color/] });
    tail.push('Warning: 256-color support not detected.\n\n');
    tail.push('x'.repeat(100) + '\nreal cause\n');
    expect(tail.lines().at(-1)).toBe('real cause');
    expect(tail.lines().some((line) => line.startsWith('Warning'))).toBe(false);
    expect(tail.tail(12)).toBe('…x\nreal cause');
  });

  test('refuses a limit that is not a positive integer', () => {
    expect(() => new StderrTail({ limit: 0 })).toThrow('options.limit must be a positive integer');
  });
});

describe('redactSecrets', () => {
  test('replaces every occurrence of each secret, longest first, and leaves short values alone', () => {
    const config = { apiKey: 'sk-live-123456', model: 'big', token: 'sk-live-123456-extra', pin: 'abc' };
    const secrets = secretValues(config, ['apiKey', 'token', 'pin', 'missing']);
    expect(secrets).toEqual(['sk-live-123456', 'sk-live-123456-extra', 'abc']);
    expect(redactSecrets('key sk-live-123456-extra and sk-live-123456 abc', secrets)).toBe('key [redacted] and [redacted] abc');
  });
});

describe('describeCliExit', () => {
  test('names the exit code or the signal and appends the stderr tail', () => {
    expect(describeCliExit('my-cli', { exitCode: 3, signal: null }, 'not logged in')).toBe('my-cli exited with code 3: not logged in');
    expect(describeCliExit('my-cli', { exitCode: null, signal: 'SIGKILL' })).toBe('my-cli was ended by SIGKILL');
  });
});
