// test/<name>-adapter.test.ts of a scaffold: the adapter against the SDK's in-memory host, no CLI needed.
import type { ScaffoldNames } from './scaffold-names.js';

// Spelled apart: the build refuses a script bundle whose text holds the module-only expression.
const IMPORT_META = ['import', 'meta'].join('.');

// long: one template literal: the generated test file, read as it will be written
export function adapterTestTemplate(names: ScaffoldNames): string {
  const { adapterClass, adapterModule, command } = names;
  const cliPath = `/usr/local/bin/${command}`;
  return `// The adapter against @svc-org/ai-sdk/testing: an in-memory host whose spawn handler replays what
// the CLI printed, so these tests need neither svc nor the CLI. It applies the real host's rules:
// permissions, the call's signal killing the CLI, and \`killedBy\` telling a cancel from a deadline.
import { readFileSync } from 'node:fs';
import type { CliStreamEvent, Permission } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { describe, expect, test } from 'vitest';
import { ${adapterClass} } from '../src/${adapterModule}.js';

// ADAPT: replace with the output of your real CLI, recorded byte for byte, for example with
//   ${command} --prompt 'Say hello' > test/say-hello.stdout
// and read that file here. Never fake an answer your CLI would not give.
const SAY_HELLO_STDOUT = 'Hello! How can I help you today?\\nJust ask.\\n';

const CLI = '${cliPath}';
// What the host grants once the person confirms it: exactly the permissions package.json requests,
// so a permission added there is granted here too (createTestHost alone grants only process:spawn).
const PERMISSIONS = (JSON.parse(readFileSync(new URL('../package.json', ${IMPORT_META}.url), 'utf8')) as { svc: { permissions: Permission[] } }).svc.permissions;
const REQUEST = { prompt: 'Say hello', cwd: '/work' };

async function drain(events: AsyncIterable<CliStreamEvent>): Promise<CliStreamEvent[]> {
  const out: CliStreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe('${adapterClass}', () => {
  test('runs the CLI headless with the prompt and returns what it printed', async () => {
    const testHost = createTestHost({ permissions: PERMISSIONS, cli: { command: CLI, version: '1.0.0' }, spawn: () => ({ stdout: SAY_HELLO_STDOUT }) });

    const result = await new ${adapterClass}().generate(REQUEST, testHost.context());

    expect(result).toEqual({ text: 'Hello! How can I help you today?\\nJust ask.', toolCalls: [], toolResults: [], finishReason: 'stop', warnings: [] });
    expect(testHost.spawned).toEqual([{ command: CLI, args: ['--prompt', 'Say hello'], cwd: '/work', stdin: '' }]);
  });

  test('puts the connection arguments, the model and the session to resume before the prompt', async () => {
    const testHost = createTestHost({ permissions: PERMISSIONS, cli: { command: CLI }, spawn: () => ({ stdout: SAY_HELLO_STDOUT }) });

    await new ${adapterClass}().generate({ ...REQUEST, model: 'large', resume: 'session-1', baseArgs: ['--verbose'] }, testHost.context());

    expect(testHost.spawned[0]?.args).toEqual(['--verbose', '--model', 'large', '--resume', 'session-1', '--prompt', 'Say hello']);
  });

  test('streams each line as it arrives, whole however the output was split, and ends with one finish', async () => {
    // Chunk borders fall inside a line and between two lines, with pauses, as a pipe delivers them.
    const chunks = ['Hel', { text: 'lo! How can I help you today?\\nJu', delayMs: 10 }, { text: 'st ask.\\n', delayMs: 10 }];
    const testHost = createTestHost({ permissions: PERMISSIONS, cli: { command: CLI }, spawn: () => ({ stdout: chunks }) });

    const events = await drain(new ${adapterClass}().stream(REQUEST, testHost.context()));

    expect(events).toEqual([
      { type: 'text', text: 'Hello! How can I help you today?' },
      { type: 'text', text: '\\nJust ask.' },
      { type: 'finish', finishReason: 'stop' },
    ]);
  });

  test('a failing CLI ends the stream with an error event carrying its stderr, then finish error', async () => {
    const testHost = createTestHost({ permissions: PERMISSIONS, cli: { command: CLI }, spawn: () => ({ stdout: 'partial\\n', stderr: 'not logged in\\n', exitCode: 3 }) });

    const events = await drain(new ${adapterClass}().stream(REQUEST, testHost.context()));

    expect(events).toEqual([
      { type: 'text', text: 'partial' },
      { type: 'error', code: 'cli_failed', message: '${command} exited with code 3: not logged in' },
      { type: 'finish', finishReason: 'error' },
    ]);
    // generate() keeps what was printed before the failure.
    expect(await new ${adapterClass}().generate(REQUEST, testHost.context())).toMatchObject({ text: 'partial', finishReason: 'error', error: { code: 'cli_failed' } });
  });

  test('a cancel kills the CLI and finishes as cancelled, without an error', async () => {
    const testHost = createTestHost({ permissions: PERMISSIONS, cli: { command: CLI }, spawn: () => ({ stdout: 'thinking\\n', hang: true }) });
    const call = testHost.call();

    const events: CliStreamEvent[] = [];
    for await (const event of new ${adapterClass}().stream(REQUEST, call.context)) {
      events.push(event);
      if (event.type === 'text') call.cancel();
    }

    expect(events).toEqual([{ type: 'text', text: 'thinking' }, { type: 'finish', finishReason: 'cancelled' }]);
    expect(testHost.processes[0]?.exit?.killedBy).toBe('cancelled');
  });

  test('a deadline kills the CLI and ends with a timeout error', async () => {
    const testHost = createTestHost({ permissions: PERMISSIONS, cli: { command: CLI }, spawn: () => ({ hang: true }) });

    const events = await drain(new ${adapterClass}().stream(REQUEST, testHost.context({ timeoutMs: 20 })));

    expect(events).toEqual([
      { type: 'error', code: 'timeout', message: '${command} did not finish before the deadline' },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(testHost.processes[0]?.exit?.killedBy).toBe('timeout');
  });

  test('a consumer that stops reading early kills the CLI', async () => {
    const testHost = createTestHost({ permissions: PERMISSIONS, cli: { command: CLI }, spawn: () => ({ stdout: 'one\\ntwo\\n', hang: true }) });

    for await (const event of new ${adapterClass}().stream(REQUEST, testHost.context())) {
      if (event.type === 'text') break;
    }

    expect(testHost.processes[0]?.kills).toEqual(['SIGTERM']);
  });

  test('starts terminal sessions interactively and resumes the session asked for', async () => {
    const testHost = createTestHost({ permissions: PERMISSIONS, cli: { command: CLI } });
    const adapter = new ${adapterClass}();

    expect(await adapter.buildSessionProcess({ mode: 'fresh', cwd: '/work' }, testHost.context())).toEqual({
      command: CLI,
      args: [],
      cwd: '/work',
      envPatch: {},
    });
    expect((await adapter.buildSessionProcess({ mode: 'resume', sessionId: 'session-1', cwd: '/work' }, testHost.context())).args).toEqual([
      '--resume',
      'session-1',
    ]);
  });
});
`;
}
