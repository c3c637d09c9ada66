// test/<name>-adapter.test.ts of a scaffold: the adapter against the SDK's in-memory host, no CLI needed.
import type { ScaffoldNames } from './scaffold-names.js';

export function adapterTestTemplate(names: ScaffoldNames): string {
  const { adapterClass, adapterModule, command } = names;
  const cliPath = `/usr/local/bin/${command}`;
  return `// The adapter against @svc-org/ai-sdk/testing: an in-memory host whose spawn handler replays what
// the CLI printed, so these tests need neither svc nor the CLI.
import type { CliStreamEvent } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { describe, expect, test } from 'vitest';
import { ${adapterClass} } from '../src/${adapterModule}.js';

// ADAPT: replace with the output of your real CLI, recorded byte for byte, for example with
//   ${command} --prompt 'Say hello' > test/say-hello.stdout
// and read that file here. Never fake an answer your CLI would not give.
const SAY_HELLO_STDOUT = 'Hello! How can I help you today?\\n';

const CLI = '${cliPath}';

describe('${adapterClass}', () => {
  test('runs the CLI headless with the prompt and returns what it printed', async () => {
    const testHost = createTestHost({ cli: { command: CLI, version: '1.0.0' }, spawn: () => ({ stdout: SAY_HELLO_STDOUT }) });

    const result = await new ${adapterClass}().generate({ prompt: 'Say hello', cwd: '/work' }, testHost.context());

    expect(result).toEqual({ text: 'Hello! How can I help you today?', toolCalls: [], toolResults: [], finishReason: 'stop', warnings: [] });
    expect(testHost.spawned).toEqual([{ command: CLI, args: ['--prompt', 'Say hello'], cwd: '/work' }]);
  });

  test('puts the connection arguments, the model and the session to resume before the prompt', async () => {
    const testHost = createTestHost({ cli: { command: CLI }, spawn: () => ({ stdout: SAY_HELLO_STDOUT }) });

    await new ${adapterClass}().generate(
      { prompt: 'Say hello', cwd: '/work', model: 'large', resume: 'session-1', baseArgs: ['--verbose'] },
      testHost.context(),
    );

    expect(testHost.spawned[0]?.args).toEqual(['--verbose', '--model', 'large', '--resume', 'session-1', '--prompt', 'Say hello']);
  });

  test('reports a failing CLI as an error result that carries its stderr', async () => {
    const testHost = createTestHost({ cli: { command: CLI }, spawn: () => ({ stderr: 'not logged in\\n', exitCode: 3 }) });

    const result = await new ${adapterClass}().generate({ prompt: 'Say hello', cwd: '/work' }, testHost.context());

    expect(result.finishReason).toBe('error');
    expect(result.error).toEqual({ code: 'cli_failed', message: '${command} exited with code 3: not logged in' });
  });

  test('streams the result as canonical events', async () => {
    const testHost = createTestHost({ cli: { command: CLI }, spawn: () => ({ stdout: SAY_HELLO_STDOUT }) });

    const events: CliStreamEvent[] = [];
    for await (const event of new ${adapterClass}().stream({ prompt: 'Say hello', cwd: '/work' }, testHost.context())) events.push(event);

    expect(events).toEqual([
      { type: 'text', text: 'Hello! How can I help you today?' },
      { type: 'finish', finishReason: 'stop' },
    ]);
  });

  test('starts terminal sessions interactively and resumes the session asked for', async () => {
    const testHost = createTestHost({ cli: { command: CLI } });
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
