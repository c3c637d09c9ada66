// The stand-in executable (test/fake-clis/claude-code/claude) run for real: it must print the real
// CLI's recordings byte for byte, and the adapter must work through it as through the real CLI.
import { cliStreamEvents } from '@svc-org/ai-sdk';
import type { CliStreamEvent } from '@svc-org/ai-sdk';
import { createRealProcessHost } from '@svc-org/ai-sdk/testing';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { svcCliPlugin } from '../src/index.js';
import { RECORDINGS_DIR, STAND_IN } from './support/paths.js';

// The stand-in replays recorded claude 2.1.197 output as a real child process.
const CLAUDE_STAND_IN = {
  permissions: ['process:spawn', 'config:provider'] as const,
  cli: { command: STAND_IN, version: '2.1.197' },
  config: {},
} as const;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const recorded = (name: string, part: string) => readFileSync(join(RECORDINGS_DIR, `${name}.${part}`));

function run(args: string[], input = '', env: Record<string, string> = {}) {
  const result = spawnSync(STAND_IN, args, { input, env: { ...process.env, ...env } });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status };
}

describe('the claude stand-in', () => {
  test('--version prints the recorded version probe, or CLAUDE_FAKE_VERSION', () => {
    expect(run(['--version']).stdout.equals(recorded('version', 'stdout'))).toBe(true);
    expect(run(['-v'], '', { CLAUDE_FAKE_VERSION: '2.1.330' }).stdout.toString()).toBe('2.1.330 (Claude Code)\n');
  });

  test('a headless query replays the recording byte for byte, prompt read from stdin', () => {
    const result = run(['-p', '--output-format', 'stream-json', '--verbose'], 'Read note.txt and tell me what it says.');
    expect(result.stdout.equals(recorded('stream-tool', 'stdout'))).toBe(true);
    expect(result.stderr.length).toBe(0);
    expect(result.status).toBe(0);
  });

  test('stderr and exit codes are replayed as recorded', () => {
    const result = run(['-p', 'Say hello.', '--output-format', 'stream-json']);
    expect(result.stdout.length).toBe(0);
    expect(result.stderr.equals(recorded('stream-requires-verbose', 'stderr'))).toBe(true);
    expect(result.status).toBe(1);
    const notFound = run(['-p', 'hi', '--output-format', 'stream-json', '--verbose', '--resume', '00000000-0000-4000-8000-000000000000']);
    expect(notFound.stdout.equals(recorded('stream-resume-not-found', 'stdout'))).toBe(true);
    expect(notFound.stderr.equals(recorded('stream-resume-not-found', 'stderr'))).toBe(true);
    expect(notFound.status).toBe(1);
  });

  test('CLAUDE_FAKE_SCENARIO picks a recording by name', () => {
    const result = run(['-p', 'anything', '--output-format', 'stream-json', '--verbose'], '', { CLAUDE_FAKE_SCENARIO: 'stream-max-turns' });
    expect(result.stdout.equals(recorded('stream-max-turns', 'stdout'))).toBe(true);
    expect(result.status).toBe(1);
  });

  test('the adapter streams a tool call through the stand-in', async () => {
    const host = createRealProcessHost(CLAUDE_STAND_IN);
    const adapter = await svcCliPlugin.createAdapter();
    const events: CliStreamEvent[] = [];
    for await (const event of cliStreamEvents(adapter.stream!({ prompt: 'Read note.txt and tell me what it says.', cwd: tmpdir() }, host.context()))) events.push(event);
    expect(events.map((event) => event.type)).toEqual([
      'session',
      'reasoning',
      'reasoning',
      'text',
      'text',
      'tool-call',
      'tool-result',
      'text',
      'text',
      'text',
      'usage',
      'finish',
    ]);
    expect(events.filter((event) => event.type === 'text').map((event) => (event as { text: string }).text).join('')).toBe(
      'Let me read the file.The note says: hello from the note.',
    );
  });

  test('cancelling a hanging query ends the stand-in process and finishes "cancelled"', async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'claude-stand-in-')), 'pids');
    const host = createRealProcessHost({ ...CLAUDE_STAND_IN, env: { CLAUDE_FAKE_PIDFILE: pidFile } });
    const adapter = await svcCliPlugin.createAdapter();
    const controller = new AbortController();
    const events: CliStreamEvent[] = [];
    for await (const event of cliStreamEvents(adapter.stream!({ prompt: 'hang', cwd: tmpdir() }, host.context(controller.signal)))) {
      events.push(event);
      if (event.type === 'session') controller.abort();
    }
    expect(events).toEqual([
      { type: 'session', sessionId: 'f81518c6-be78-4dfb-840b-04364964ad04' },
      { type: 'finish', finishReason: 'cancelled' },
    ]);
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    await expect.poll(() => isAlive(pid), { timeout: 5_000 }).toBe(false);
  });

  test('a consumer that stops reading ends the stand-in process', async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'claude-stand-in-')), 'pids');
    const host = createRealProcessHost({ ...CLAUDE_STAND_IN, env: { CLAUDE_FAKE_PIDFILE: pidFile } });
    const adapter = await svcCliPlugin.createAdapter();
    for await (const event of cliStreamEvents(adapter.stream!({ prompt: 'hang', cwd: tmpdir() }, host.context()))) {
      if (event.type === 'session') break;
    }
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    await expect.poll(() => isAlive(pid), { timeout: 5_000 }).toBe(false);
  });

  test('a session process built by the adapter runs the interactive stand-in', async () => {
    const host = createRealProcessHost({ ...CLAUDE_STAND_IN, config: { model: 'sonnet' } });
    const adapter = await svcCliPlugin.createAdapter();
    const description = await adapter.buildSessionProcess({ mode: 'resume', sessionId: 'abc', cwd: tmpdir() }, host.context());
    const child = spawn(description.command, description.args, { cwd: description.cwd, env: { ...process.env, ...description.envPatch } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stdin.end('hello there\n');
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(output).toContain('resumed abc model sonnet');
    expect(output).toContain('you said "hello there"');
  });
});
