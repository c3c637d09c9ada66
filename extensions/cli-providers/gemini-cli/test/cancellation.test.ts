import { cliStreamEvents } from '@svc-org/ai-sdk';
import type { ChildProcessHandle, CliStreamEvent } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { describe, expect, test } from 'vitest';
import { svcCliPlugin } from '../src/index.js';
import { StreamJsonMapper } from '../src/stream-json-mapper.js';
import { ALL_PERMISSIONS, readRecording } from './recording-host.js';

const REQUEST = { prompt: 'Count slowly to ten.', cwd: '/work/project' };

/** A CLI that printed these lines and then hangs (offline, or waiting on a slow model). */
function hangingHost(lines: string) {
  return createTestHost({ permissions: ALL_PERMISSIONS, cli: { command: 'gemini' }, spawn: () => ({ stdout: lines, hang: true }) });
}

function firstLines(name: string, count: number): string {
  return readRecording(name).stdout.split('\n').slice(0, count).join('\n') + '\n';
}

describe('cancellation', () => {
  test('aborting a hanging stream after its first event ends it with finish "cancelled" and nothing invented', async () => {
    const host = hangingHost(firstLines('stream-text', 1));
    const controller = new AbortController();
    const adapter = await svcCliPlugin.createAdapter();
    const events: CliStreamEvent[] = [];
    for await (const event of cliStreamEvents(adapter.stream!(REQUEST, host.context(controller.signal)))) {
      events.push(event);
      if (event.type === 'session') controller.abort();
    }
    expect(events).toEqual([
      { type: 'session', sessionId: '7463131f-e13b-457f-a58c-c21c700b2d55' },
      { type: 'finish', finishReason: 'cancelled' },
    ]);
  });

  test('the recorded mid-stream kill, cancelled by the host, keeps the text that came and finishes "cancelled"', async () => {
    const host = hangingHost(readRecording('stream-cancel').stdout);
    const controller = new AbortController();
    const adapter = await svcCliPlugin.createAdapter();
    const events: CliStreamEvent[] = [];
    for await (const event of cliStreamEvents(adapter.stream!(REQUEST, host.context(controller.signal)))) {
      events.push(event);
      if (event.type === 'text') controller.abort();
    }
    expect(events).toEqual([
      { type: 'session', sessionId: 'c640e6bf-ab88-4d72-9ef9-2587f3f0031e' },
      { type: 'text', text: 'one two three fo' },
      { type: 'finish', finishReason: 'cancelled' },
    ]);
  });

  test('aborting generate() returns a result with finishReason "cancelled"', async () => {
    const host = hangingHost('');
    const controller = new AbortController();
    const adapter = await svcCliPlugin.createAdapter();
    const pending = adapter.generate(REQUEST, host.context(controller.signal));
    setTimeout(() => controller.abort(), 20);
    expect(await pending).toEqual({ text: '', toolCalls: [], toolResults: [], finishReason: 'cancelled', warnings: [] });
  });

  test('an already aborted call spawns nothing', async () => {
    const host = hangingHost('');
    const controller = new AbortController();
    controller.abort();
    const adapter = await svcCliPlugin.createAdapter();
    const events: CliStreamEvent[] = [];
    for await (const event of cliStreamEvents(adapter.stream!(REQUEST, host.context(controller.signal)))) events.push(event);
    expect(events).toEqual([{ type: 'finish', finishReason: 'cancelled' }]);
    expect((await adapter.generate(REQUEST, host.context(controller.signal))).finishReason).toBe('cancelled');
    expect(host.spawned).toEqual([]);
  });

  test('a consumer that stops reading early gets the CLI killed', async () => {
    const host = hangingHost(firstLines('stream-text', 3));
    const handles: ChildProcessHandle[] = [];
    const spawn = host.host.process.spawn;
    (host.host.process as { spawn: typeof spawn }).spawn = async (spec, options) => {
      const handle = await spawn(spec, options);
      handles.push(handle);
      return handle;
    };
    const adapter = await svcCliPlugin.createAdapter();
    for await (const event of cliStreamEvents(adapter.stream!(REQUEST, host.context()))) {
      if (event.type === 'text') break;
    }
    expect(handles).toHaveLength(1);
    expect(await handles[0]!.exited).toEqual({ exitCode: null, signal: 'SIGTERM' });
  });

  test('a run the host stopped for its timeout is a timeout error', () => {
    const mapper = new StreamJsonMapper();
    mapper.push(firstLines('stream-text', 1));
    expect(mapper.end({ exit: { exitCode: null, signal: 'SIGKILL', killedBy: 'timeout' }, stderr: '', aborted: false })).toEqual([
      { type: 'error', code: 'timeout', message: 'gemini did not finish in time and was stopped' },
      { type: 'finish', finishReason: 'error' },
    ]);
  });

  test('exit 130 (the CLI cancelled itself) without a result line finishes "cancelled"', () => {
    const mapper = new StreamJsonMapper();
    expect(mapper.end({ exit: { exitCode: 130, signal: null }, stderr: '', aborted: false })).toEqual([
      { type: 'finish', finishReason: 'cancelled' },
    ]);
  });
});
