import { SvcError } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { expect, test } from 'vitest';
import { QwenCodeAdapter } from '../src/qwen-code-adapter.js';
import { collectEvents } from './support/collect-events.js';
import { recordingScript } from './support/load-recording.js';

const request = { prompt: 'Say hello', cwd: '/work/project', model: 'qwen3-coder-plus', resume: 'abc', maxTurns: 2 };
const SHELLS = ['sh', 'bash', 'zsh', 'dash', 'cmd', 'cmd.exe', 'powershell', 'pwsh'];

test('without process:spawn, stream() and generate() fail with permission_denied and start nothing', async () => {
  const testHost = createTestHost({ permissions: ['network:provider'], cli: { command: 'qwen' } });
  const adapter = new QwenCodeAdapter();
  const streamed = await collectEvents(adapter.stream(request, testHost.context())).catch((e: unknown) => e);
  const generated = await adapter.generate(request, testHost.context()).catch((e: unknown) => e);
  for (const failure of [streamed, generated]) {
    expect(SvcError.hasCode(failure) && failure.code).toBe('permission_denied');
  }
  expect(testHost.spawned).toEqual([]);
});

test('with exactly its manifest permissions it runs, using nothing else of the host', async () => {
  const testHost = createTestHost({
    permissions: ['process:spawn', 'network:provider'],
    cli: { command: 'qwen' },
    spawn: (spec) => recordingScript(spec.args.includes('json') ? 'json-text' : 'stream-json-text'),
  });
  const adapter = new QwenCodeAdapter();
  // config.get and the integration files API would throw permission_denied here; a clean run shows
  // the adapter reads no settings and touches no CLI configuration (~/.qwen).
  expect((await collectEvents(adapter.stream(request, testHost.context()))).at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  expect((await adapter.generate(request, testHost.context())).finishReason).toBe('stop');
  expect(testHost.files.size).toBe(0);
  expect(testHost.storage.size).toBe(0);
});

test('never spawns a shell, never sets an environment, a base URL, a key or an auth type', async () => {
  const testHost = createTestHost({
    cli: { command: '/opt/homebrew/bin/qwen' },
    spawn: (spec) => recordingScript(spec.args.includes('json') ? 'json-text' : 'stream-json-text'),
  });
  const adapter = new QwenCodeAdapter();
  await collectEvents(adapter.stream({ ...request, prompt: 'a; b && c | d $(e)' }, testHost.context()));
  await adapter.generate({ ...request, continue: true, resume: undefined }, testHost.context());
  expect(testHost.spawned).toHaveLength(2);
  for (const spec of testHost.spawned) {
    expect(spec.command).toBe('/opt/homebrew/bin/qwen');
    expect(SHELLS).not.toContain(spec.command);
    expect(spec.args).not.toContain('-c');
    expect(spec.envPatch).toBeUndefined();
    expect(spec.args.filter((arg) => /^--(openai-|auth-type|proxy|insecure)/.test(arg))).toEqual([]);
  }
  const session = adapter.buildSessionProcess({ mode: 'fresh', cwd: '/work/project' }, testHost.context());
  expect(session.envPatch).toEqual({});
  expect(SHELLS).not.toContain(session.command);
});
