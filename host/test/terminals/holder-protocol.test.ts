import { describe, expect, test } from 'vitest';
import { FrameDecoder, dataFrame, jsonFrame, type HolderFrame } from '../../src/features/terminals/holder/holder-protocol.js';

// Two terminals' output (one with characters of several bytes) around control messages.
const stream = Buffer.concat([
  jsonFrame({ t: 'resize', id: 1, cols: 80, rows: 24 }),
  dataFrame(1, 'héllo wörld '.repeat(500)),
  dataFrame(2, '→ ✓ '.repeat(300)),
  jsonFrame({ t: 'park', id: 2, parked: true }),
  dataFrame(1, ''),
  dataFrame(1, 'the end'),
  jsonFrame({ t: 'release', id: 1 }),
]);

/** What a sequence of frames says: each terminal's bytes, and the messages with how much output came before each. */
function replay(frames: HolderFrame[]) {
  const output = new Map<number, Buffer[]>();
  const messages: Array<{ message: unknown; before: number }> = [];
  let seen = 0;
  for (const frame of frames) {
    if (frame.kind === 'json') messages.push({ message: frame.message, before: seen });
    else {
      // Copied: a piece is a view of the chunk pushed.
      output.set(frame.id, [...(output.get(frame.id) ?? []), Buffer.from(frame.data)]);
      seen += frame.data.length;
    }
  }
  return { output: new Map([...output].map(([id, chunks]) => [id, Buffer.concat(chunks).toString('utf8')])), messages };
}

function decodeIn(sizes: number[], streamData: boolean): HolderFrame[] {
  const decoder = new FrameDecoder({ streamData });
  const frames: HolderFrame[] = [];
  let at = 0;
  for (let i = 0; at < stream.length; i++) {
    const size = sizes[i % sizes.length]!;
    frames.push(...decoder.push(Buffer.from(stream.subarray(at, at + size))));
    at += size;
  }
  return frames;
}

/** Streamed from one read buffer that is overwritten after each read, as the service reads its socket. */
function decodeReusing(sizes: number[]): HolderFrame[] {
  const decoder = new FrameDecoder({ streamData: true });
  const scratch = Buffer.alloc(Math.max(...sizes));
  const frames: HolderFrame[] = [];
  let at = 0;
  for (let i = 0; at < stream.length; i++) {
    const size = Math.min(sizes[i % sizes.length]!, stream.length - at);
    stream.copy(scratch, 0, at, at + size);
    for (const frame of decoder.push(scratch.subarray(0, size))) frames.push(frame.kind === 'data' ? { ...frame, data: Buffer.from(frame.data) } : frame);
    scratch.fill(0xff);
    at += size;
  }
  return frames;
}

describe('the holder protocol', () => {
  test('however the stream is cut, each terminal gets its bytes and each message comes after the output before it, whole or streamed, also from a reused read buffer', () => {
    const expected = replay(decodeIn([stream.length], false));
    expect(expected.output.get(1)).toBe(`${'héllo wörld '.repeat(500)}the end`);
    for (const sizes of [[1], [3, 7], [4096], [9, 5, 1000], [stream.length]]) {
      for (const streamData of [false, true]) expect(replay(decodeIn(sizes, streamData))).toEqual(expected);
      expect(replay(decodeReusing(sizes))).toEqual(expected);
    }
  });

  test('streamed, a data frame is passed on as its bytes arrive, without waiting for the rest of it', () => {
    const frame = dataFrame(7, 'x'.repeat(10_000));
    const decoder = new FrameDecoder({ streamData: true });
    expect(decoder.push(frame.subarray(0, 4))).toEqual([]);
    const first = decoder.push(frame.subarray(4, 1009));
    expect(first).toEqual([{ kind: 'data', id: 7, data: Buffer.from('x'.repeat(1000)) }]);
    const rest = decoder.push(frame.subarray(1009));
    expect(rest).toEqual([{ kind: 'data', id: 7, data: Buffer.from('x'.repeat(9000)) }]);
  });

  test('a frame larger than the limit or of an unknown kind breaks the connection', () => {
    const huge = Buffer.alloc(8);
    huge.writeUInt32BE(64 * 1024 * 1024, 0);
    expect(() => new FrameDecoder({ streamData: true }).push(huge)).toThrow(/frame of/);
    const unknown = Buffer.from([0, 0, 0, 2, 9, 0]);
    expect(() => new FrameDecoder({ streamData: true }).push(unknown)).toThrow(/unknown kind/);
  });
});
