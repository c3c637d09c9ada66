import { cliStreamEvents, type ChildProcessHandle } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { expect, test } from 'vitest';
import { QwenCodeAdapter } from '../src/qwen-code-adapter.js';
import { collectEvents } from './support/collect-events.js';
import { loadRecording } from './support/load-recording.js';

const request = { prompt: 'Say hello', cwd: '/work/project' };
const initLine = `${loadRecording('stream-json-text').stdout.split('\n')[0]}\n`;
const SESSION = '606f6d75-128e-4a79-874f-d2abc5e5f104';

test('a signal aborted before the call ends the stream with finish cancelled and starts nothing', async () => {
  const testHost = createTestHost({ cli: { command: 'qwen' } });
  const controller = new AbortController();
  controller.abort();
  const events = await collectEvents(new QwenCodeAdapter().stream(request, testHost.context(controller.signal)));
  expect(events).toEqual([{ type: 'finish', finishReason: 'cancelled' }]);
  expect(testHost.spawned).toEqual([]);
});

test('aborting a hanging CLI mid-stream ends with finish cancelled and no error', async () => {
  const testHost = createTestHost({ cli: { command: 'qwen' }, spawn: () => ({ stdout: initLine, hang: true }) });
  const controller = new AbortController();
  const events = [];
  for await (const event of cliStreamEvents(new QwenCodeAdapter().stream(request, testHost.context(controller.signal)))) {
    events.push(event);
    if (event.type === 'session') controller.abort();
  }
  expect(events).toEqual([
    { type: 'session', sessionId: SESSION },
    { type: 'finish', finishReason: 'cancelled' },
  ]);
});

test('aborting generate() on a hanging CLI returns a cancelled result', async () => {
  const testHost = createTestHost({ cli: { command: 'qwen' }, spawn: () => ({ hang: true }) });
  const controller = new AbortController();
  const pending = new QwenCodeAdapter().generate(request, testHost.context(controller.signal));
  setTimeout(() => controller.abort(), 20);
  expect(await pending).toEqual({ text: '', toolCalls: [], toolResults: [], finishReason: 'cancelled', warnings: [] });
});

test('the adapter passes the call signal to the host, which owns the kill', async () => {
  const testHost = createTestHost({ cli: { command: 'qwen' }, spawn: () => ({ stdout: initLine, hang: true }) });
  const seen: (AbortSignal | undefined)[] = [];
  const spawn = testHost.host.process.spawn;
  testHost.host.process.spawn = (spec, options) => {
    seen.push(options?.signal);
    return spawn(spec, options);
  };
  const controller = new AbortController();
  const stream = new QwenCodeAdapter().stream(request, testHost.context(controller.signal));
  const iterator = stream[Symbol.asyncIterator]();
  await iterator.next();
  controller.abort();
  await iterator.next();
  expect(seen).toEqual([controller.signal]);
});

test('a consumer that stops reading early makes the adapter kill the CLI', async () => {
  const testHost = createTestHost({ cli: { command: 'qwen' }, spawn: () => ({ stdout: initLine, hang: true }) });
  const kills: string[] = [];
  const spawn = testHost.host.process.spawn;
  testHost.host.process.spawn = async (spec, options) => {
    const child: ChildProcessHandle = await spawn(spec, options);
    return {
      ...child,
      kill: async (signal) => {
        kills.push(signal ?? 'SIGTERM');
        await child.kill(signal);
      },
    };
  };
  for await (const event of cliStreamEvents(new QwenCodeAdapter().stream(request, testHost.context()))) {
    if (event.type === 'session') break;
  }
  expect(kills).toEqual(['SIGTERM']);
});
