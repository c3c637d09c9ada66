import { describe, expect, test } from 'vitest';
import {
  abortError,
  abortReason,
  CliError,
  endCliStream,
  StreamingCliAdapter,
  type AdapterContext,
  type CliStreamEvent,
  type QueryRequest,
} from '../src/index.js';
import { createTestHost } from '../src/testing/index.js';

async function collect(events: AsyncIterable<CliStreamEvent>): Promise<CliStreamEvent[]> {
  const out: CliStreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

async function* from(events: CliStreamEvent[], thenThrow?: unknown): AsyncGenerator<CliStreamEvent> {
  yield* events;
  if (thenThrow !== undefined) throw thenThrow;
}

const live = () => new AbortController().signal;

describe('endCliStream', () => {
  test('stops at the first finish', async () => {
    const events = await collect(endCliStream(from([{ type: 'text', text: 'a' }, { type: 'finish', finishReason: 'stop' }, { type: 'text', text: 'late' }]), live()));
    expect(events).toEqual([{ type: 'text', text: 'a' }, { type: 'finish', finishReason: 'stop' }]);
  });

  test('turns a throw into an error event and finish error, keeping the code', async () => {
    const error = new CliError({ code: 'cli_auth_failed', message: 'log in first' });
    expect(await collect(endCliStream(from([], error), live()))).toEqual([
      { type: 'error', code: 'cli_auth_failed', message: 'log in first' },
      { type: 'finish', finishReason: 'error' },
    ]);
  });

  test('a stream without finish ends as other, error, cancelled or timeout', async () => {
    expect((await collect(endCliStream(from([{ type: 'text', text: 'a' }]), live()))).at(-1)).toEqual({ type: 'finish', finishReason: 'other' });
    expect((await collect(endCliStream(from([{ type: 'error', code: 'cli_failed', message: 'x' }]), live()))).at(-1)).toEqual({ type: 'finish', finishReason: 'error' });
    const cancelled = new AbortController();
    cancelled.abort();
    expect(await collect(endCliStream(from([]), cancelled.signal))).toEqual([{ type: 'finish', finishReason: 'cancelled' }]);
    const late = new AbortController();
    late.abort(abortError('timeout'));
    expect(await collect(endCliStream(from([]), late.signal))).toEqual([
      { type: 'error', code: 'timeout', message: 'the call did not finish before its deadline' },
      { type: 'finish', finishReason: 'error' },
    ]);
  });
});

describe('abortReason', () => {
  test('is undefined while live, timeout for the host deadline, cancelled for anything else', () => {
    const test = createTestHost();
    const call = test.call();
    expect(abortReason(call.context.signal)).toBeUndefined();
    call.expireDeadline();
    expect(abortReason(call.context.signal)).toBe('timeout');
    const plain = new AbortController();
    plain.abort();
    expect(abortReason(plain.signal)).toBe('cancelled');
  });

  test('a context with timeoutMs aborts as a deadline; its caller signal aborts as a cancel', async () => {
    const test = createTestHost();
    const ctx = test.context({ timeoutMs: 5 });
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
    expect(abortReason(ctx.signal)).toBe('timeout');
    const caller = new AbortController();
    const other = test.context(caller.signal);
    caller.abort();
    expect(abortReason(other.signal)).toBe('cancelled');
  });
});

class Echo extends StreamingCliAdapter {
  buildSessionProcess() {
    return { command: 'echo', args: [], cwd: '/', envPatch: {} };
  }
  async *stream(request: QueryRequest, ctx: AdapterContext): AsyncIterable<CliStreamEvent> {
    yield { type: 'session', sessionId: 's-1' };
    yield { type: 'text', text: request.prompt };
    if (ctx.signal.aborted) return;
    yield { type: 'usage', inputTokens: 1, outputTokens: 2 };
    yield { type: 'finish', finishReason: 'stop' };
  }
}

describe('StreamingCliAdapter', () => {
  test('derives generate() from stream()', async () => {
    expect(await new Echo().generate({ prompt: 'hi', cwd: '/' }, createTestHost().context())).toEqual({
      text: 'hi',
      toolCalls: [],
      toolResults: [],
      usage: { inputTokens: 1, outputTokens: 2 },
      sessionId: 's-1',
      finishReason: 'stop',
      warnings: [],
    });
  });

  test('a stream cut short by a cancel collects as cancelled', async () => {
    const call = createTestHost().call();
    call.cancel();
    expect((await new Echo().generate({ prompt: 'hi', cwd: '/' }, call.context)).finishReason).toBe('cancelled');
  });
});
