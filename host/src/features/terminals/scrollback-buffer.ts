import { SvcError } from '@svc-org/ai-sdk';

export interface ScrollbackRead {
  /** Output from `from` to `cursor`, cut at UTF-8 character boundaries. */
  data: Buffer;
  /** Where this read started (after a jump when the reader fell behind). */
  from: number;
  /** Pass this as the next cursor. */
  cursor: number;
  /** The oldest offset still retained and the offset after the newest byte. */
  start: number;
  end: number;
  /** The requested cursor was older than the retained window: `missedBytes` were dropped. */
  behind: boolean;
  missedBytes: number;
}

// Small at first: most terminals sit idle at a prompt; a busy one doubles up to its bound.
const INITIAL_CAPACITY = 16 * 1024;

/**
 * A terminal's scrollback: a ring of bytes that grows on demand up to `limitBytes`, then drops the
 * oldest output. Offsets count every byte ever written (from `startOffset`), so a reader's cursor
 * stays meaningful while the window slides.
 */
export class ScrollbackBuffer {
  private ring: Buffer;
  private head = 0;
  private size = 0;
  private total: number;

  constructor(readonly limitBytes: number, startOffset = 0) {
    this.ring = Buffer.alloc(Math.min(INITIAL_CAPACITY, limitBytes));
    this.total = startOffset;
  }

  get start(): number {
    return this.total - this.size;
  }

  get end(): number {
    return this.total;
  }

  /** Bytes held in memory for this buffer (its capacity, not just what is filled). */
  get memoryBytes(): number {
    return this.ring.length;
  }

  append(chunk: Buffer): void {
    const length = chunk.length;
    if (length === 0) return;
    if (length >= this.limitBytes) {
      // Only the newest `limit` bytes of a huge chunk can survive anyway.
      if (this.ring.length < this.limitBytes) this.ring = Buffer.alloc(this.limitBytes);
      chunk.copy(this.ring, 0, length - this.limitBytes);
      this.head = 0;
      this.size = this.limitBytes;
      this.total += length;
      return;
    }
    this.reserve(this.size + length);
    const capacity = this.ring.length;
    const overflow = this.size + length - capacity;
    if (overflow > 0) {
      this.head = (this.head + overflow) % capacity;
      this.size -= overflow;
    }
    const tail = (this.head + this.size) % capacity;
    const first = Math.min(length, capacity - tail);
    chunk.copy(this.ring, tail, 0, first);
    if (first < length) chunk.copy(this.ring, 0, first);
    this.size += length;
    this.total += length;
  }

  read(cursor: number | undefined, maxBytes: number): ScrollbackRead {
    const start = this.start;
    const end = this.end;
    const requested = cursor ?? start;
    if (!Number.isInteger(requested) || requested < 0 || requested > end) {
      throw new SvcError({
        code: 'cursor_out_of_range',
        message: `cursor ${cursor} is past the end of the output (${end}); start again from ${start}`,
        details: { cursor, start, end },
      });
    }
    const behind = requested < start;
    let from = behind ? start : requested;
    // The window edge may cut a character in two: skip its continuation bytes.
    if (from === start) while (from < end && from - start < 3 && isContinuation(this.byteAt(from))) from++;
    let to = Math.min(end, from + Math.max(1, maxBytes));
    to = this.backToBoundary(from, to);
    if (to === from && from < end) {
      // A limit smaller than one character still returns that whole character, once it is complete.
      const lead = this.byteAt(from);
      const whole = from + (lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1);
      if (whole <= end) to = whole;
    }
    return {
      data: this.copy(from, to),
      from,
      cursor: to,
      start,
      end,
      behind,
      missedBytes: behind ? start - requested : 0,
    };
  }

  private reserve(needed: number): void {
    if (needed <= this.ring.length || this.ring.length >= this.limitBytes) return;
    let capacity = this.ring.length;
    while (capacity < needed && capacity < this.limitBytes) capacity *= 2;
    const grown = Buffer.alloc(Math.min(capacity, this.limitBytes));
    const data = this.copy(this.start, this.end);
    data.copy(grown, 0);
    this.ring = grown;
    this.head = 0;
  }

  private byteAt(offset: number): number {
    return this.ring[(this.head + (offset - this.start)) % this.ring.length]!;
  }

  /** Moves `to` back so the read never ends inside a multi-byte UTF-8 character. */
  private backToBoundary(from: number, to: number): number {
    for (let back = 1; back <= 4 && to - back >= from; back++) {
      const byte = this.byteAt(to - back);
      if (isContinuation(byte)) continue;
      const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
      return needs > back ? to - back : to;
    }
    return to;
  }

  private copy(from: number, to: number): Buffer {
    const length = to - from;
    const out = Buffer.allocUnsafe(length);
    if (length === 0) return out;
    const capacity = this.ring.length;
    const at = (this.head + (from - this.start)) % capacity;
    const first = Math.min(length, capacity - at);
    this.ring.copy(out, 0, at, at + first);
    if (first < length) this.ring.copy(out, first, 0, length - first);
    return out;
  }
}

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}
