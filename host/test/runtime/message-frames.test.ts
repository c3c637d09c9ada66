// A hardened provider's frames are measured before they are decoded: bytes that would decode to far
// more than the bound (back-references, a dense array's declared length, empty objects) are refused
// unread, while plain data of every kind the host relays is decoded as sent.
import { serialize } from 'node:v8';
import { describe, expect, test } from 'vitest';
import { encodeFrame, FrameReader } from '../../src/features/extensions/runtime/message-frames.js';

const BOUND = 4 * 1024 * 1024;

/** A frame whose body is `{ k: 'm', c: 1, m: [<obj>, ^obj, ^obj, …] }`: a dense array of `length` back-references to one empty object. */
function backReferenceFrame(length: number): Buffer {
  const head = serialize({ k: 'm', c: 1 });
  const varint = (value: number) => {
    const bytes: number[] = [];
    while (value >= 0x80) {
      bytes.push((value & 0x7f) | 0x80);
      value = Math.floor(value / 128);
    }
    return [...bytes, value];
  };
  // Object ids: the envelope 0, the array 1, the empty object 2.
  const array = Buffer.concat([
    Buffer.from([0x22, 1, 0x6d, 0x41, ...varint(length), 0x6f, 0x7b, 0]),
    Buffer.alloc((length - 1) * 2, Buffer.from([0x5e, 2])),
    Buffer.from([0x24, 0, ...varint(length)]),
  ]);
  // The envelope's closing `{ <count> }` moves after the new property.
  const body = Buffer.concat([head.subarray(0, head.length - 2), array, Buffer.from([0x7b, 3])]);
  const header = Buffer.alloc(4);
  header.writeUInt32BE(body.length);
  return Buffer.concat([header, body]);
}

describe('the frame reader of a hardened provider', () => {
  test('refuses a frame of back-references that would decode to many times its size, before decoding it', () => {
    const frame = backReferenceFrame(Math.floor((BOUND - 64) / 2));
    expect(frame.length).toBeLessThanOrEqual(BOUND + 4);
    const [result] = new FrameReader(BOUND, 128).push(frame);
    expect(result).toMatchObject({ ok: false, fault: { code: 'ipc_message_too_large' } });
    expect((result as { fault: { message: string } }).fault.message).toContain('once decoded');
  });

  test('a small frame of the same shape decodes to what it says', () => {
    const [result] = new FrameReader(BOUND, 128).push(backReferenceFrame(3));
    expect(result).toEqual({ ok: true, value: { k: 'm', c: 1, m: [{}, {}, {}] } });
  });

  test('plain data of every kind decodes as sent, and a frame nested past the bound is refused unread', () => {
    const value = {
      k: 'm',
      c: 7,
      m: { t: 'evs', e: [{ type: 'text', text: 'é€'.repeat(50) }, null, true, 1.5, -3, 12n, new Date(0), Buffer.from('bytes'), new Map([[1, new Set(['a'])]]), [1, , 3]], err: new TypeError('boom', { cause: { code: 'x' } }) },
    };
    const [result] = new FrameReader(BOUND, 128).push(encodeFrame(value));
    expect(result?.ok).toBe(true);
    expect((result as { value: typeof value }).value.m.e[0]).toEqual({ type: 'text', text: 'é€'.repeat(50) });
    let deep: unknown = {};
    for (let i = 0; i < 200; i++) deep = { a: deep };
    const [refused] = new FrameReader(BOUND, 128).push(encodeFrame(deep));
    expect(refused).toMatchObject({ ok: false, fault: { code: 'ipc_message_too_deep' } });
  });
});
