import { describe, expect, test } from 'vitest';
import { ScrollbackBuffer } from '../../src/features/terminals/index.js';

const text = (buffer: ScrollbackBuffer, cursor?: number, max = 1 << 20) => {
  const read = buffer.read(cursor, max);
  return { ...read, text: read.data.toString('utf8') };
};

describe('scrollback buffer', () => {
  test('returns output after a cursor and the next cursor', () => {
    const buffer = new ScrollbackBuffer(4096);
    buffer.append(Buffer.from('hello '));
    const first = text(buffer, 0);
    expect(first).toMatchObject({ text: 'hello ', cursor: 6, behind: false });
    buffer.append(Buffer.from('world'));
    expect(text(buffer, first.cursor)).toMatchObject({ text: 'world', cursor: 11, start: 0, end: 11 });
    expect(text(buffer, 11).text).toBe('');
  });

  test('never holds more than its bound and tells a reader that fell behind', () => {
    const buffer = new ScrollbackBuffer(4096);
    for (let i = 0; i < 1000; i++) buffer.append(Buffer.from(`line ${String(i).padStart(4, '0')}\n`));
    expect(buffer.end).toBe(10_000);
    expect(buffer.end - buffer.start).toBe(4096);
    expect(buffer.memoryBytes).toBeLessThanOrEqual(4096);
    const read = text(buffer, 0);
    expect(read.behind).toBe(true);
    expect(read.missedBytes).toBe(buffer.start);
    expect(read.text.endsWith('line 0999\n')).toBe(true);
    expect(read.text.length).toBe(4096);
  });

  test('keeps only the newest bytes of a chunk larger than the bound', () => {
    const buffer = new ScrollbackBuffer(4096);
    buffer.append(Buffer.from('a'.repeat(10_000) + 'END'));
    const read = text(buffer);
    expect(read.text.length).toBe(4096);
    expect(read.text.endsWith('END')).toBe(true);
    expect(read.start).toBe(10_003 - 4096);
  });

  test('grows on demand instead of reserving its bound up front', () => {
    const buffer = new ScrollbackBuffer(8 * 1024 * 1024);
    buffer.append(Buffer.from('idle prompt> '));
    expect(buffer.memoryBytes).toBeLessThanOrEqual(64 * 1024);
    buffer.append(Buffer.alloc(300 * 1024, 0x41));
    expect(buffer.memoryBytes).toBeGreaterThanOrEqual(300 * 1024);
    expect(text(buffer, 0).text.startsWith('idle prompt> AAA')).toBe(true);
  });

  test('pages with a byte limit without cutting a UTF-8 character', () => {
    const buffer = new ScrollbackBuffer(4096);
    buffer.append(Buffer.from('añb€c'));
    const pieces: string[] = [];
    let cursor = 0;
    while (cursor < buffer.end) {
      const read = text(buffer, cursor, 2);
      pieces.push(read.text);
      cursor = read.cursor;
    }
    expect(pieces.join('')).toBe('añb€c');
    expect(pieces.every((piece) => !piece.includes('\uFFFD'))).toBe(true);
  });

  test('holds back a character whose last bytes have not arrived yet', () => {
    const buffer = new ScrollbackBuffer(4096);
    const euro = Buffer.from('€');
    buffer.append(Buffer.concat([Buffer.from('x'), euro.subarray(0, 2)]));
    expect(text(buffer, 0)).toMatchObject({ text: 'x', cursor: 1 });
    buffer.append(euro.subarray(2));
    expect(text(buffer, 1)).toMatchObject({ text: '€', cursor: 4 });
  });

  test('refuses a cursor past the end', () => {
    const buffer = new ScrollbackBuffer(4096);
    buffer.append(Buffer.from('abc'));
    expect(() => buffer.read(4, 10)).toThrow(expect.objectContaining({ code: 'cursor_out_of_range' }));
  });

  test('continues the offsets of a previous terminal', () => {
    const buffer = new ScrollbackBuffer(4096, 500);
    buffer.append(Buffer.from('next'));
    expect(text(buffer, 500)).toMatchObject({ text: 'next', cursor: 504, start: 500 });
    expect(text(buffer, 100)).toMatchObject({ behind: true, missedBytes: 400 });
  });
});
