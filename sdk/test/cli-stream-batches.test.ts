// A stream may carry its events in arrays (one item per chunk of the CLI's output): every consumer
// the SDK offers sees the same events, in the same order, as from the same stream one event at a time.
import { describe, expect, test } from 'vitest';
import {
  cliStreamEvents,
  collectCliQueryStream,
  endCliStream,
  StreamingCliAdapter,
  type AdapterContext,
  type CliStreamEvent,
  type CliStreamItem,
  type QueryRequest,
} from '../src/index.js';
import { createTestHost } from '../src/testing/index.js';

const EVENTS: CliStreamEvent[] = [
  { type: 'session', sessionId: 's-1' },
  { type: 'reasoning', text: 'think' },
  { type: 'tool-call', toolCallId: 't1', toolName: 'read_file', input: { path: 'a' } },
  { type: 'tool-result', toolCallId: 't1', toolName: 'read_file', output: 'A' },
  { type: 'text', text: 'Hel' },
  { type: 'text', text: 'lo' },
  { type: 'usage', inputTokens: 3, outputTokens: 2 },
  { type: 'finish', finishReason: 'stop' },
];

/** The same events as single items, arrays of several, an empty array and a one-event array. */
async function* batched(events: CliStreamEvent[]): AsyncGenerator<CliStreamItem> {
  yield events[0]!;
  yield events.slice(1, 4);
  yield [];
  yield [events[4]!];
  yield events[5]!;
  yield events.slice(6);
}

async function* single(events: CliStreamEvent[]): AsyncGenerator<CliStreamItem> {
  for (const event of events) yield event;
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const live = () => new AbortController().signal;

describe('a batched stream', () => {
  test('cliStreamEvents gives its events one by one, in order', async () => {
    expect(await all(cliStreamEvents(batched(EVENTS)))).toEqual(EVENTS);
    expect(await all(cliStreamEvents(single(EVENTS)))).toEqual(EVENTS);
  });

  test('collectCliQueryStream builds the same result as from single events', async () => {
    const fromBatches = await collectCliQueryStream(batched(EVENTS));
    expect(fromBatches).toEqual(await collectCliQueryStream(EVENTS));
    expect(fromBatches).toMatchObject({ text: 'Hello', reasoning: 'think', sessionId: 's-1', finishReason: 'stop' });
  });

  test('endCliStream stops at a finish inside a batch, and what follows it in the batch is dropped', async () => {
    async function* late(): AsyncGenerator<CliStreamItem> {
      yield [{ type: 'text', text: 'a' }, { type: 'finish', finishReason: 'stop' }, { type: 'text', text: 'late' }];
      yield { type: 'text', text: 'later' };
    }
    expect(await all(endCliStream(late(), live()))).toEqual([{ type: 'text', text: 'a' }, { type: 'finish', finishReason: 'stop' }]);
    expect(await all(endCliStream(batched(EVENTS), live()))).toEqual(EVENTS);
  });

  test('a StreamingCliAdapter whose stream yields arrays generates the same result', async () => {
    class Batches extends StreamingCliAdapter {
      buildSessionProcess() {
        return { command: 'x', args: [], cwd: '/', envPatch: {} };
      }
      stream(_request: QueryRequest, _ctx: AdapterContext): AsyncIterable<CliStreamItem> {
        return batched(EVENTS);
      }
    }
    expect(await new Batches().generate({ prompt: 'hi', cwd: '/' }, createTestHost().context())).toEqual(await collectCliQueryStream(EVENTS));
  });
});
