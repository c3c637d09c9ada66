// The framing of a hardened provider process's channel (its fd 3): a 4-byte big-endian length, then
// one value in V8's serialization. The host reads the length before it buffers a byte of the body,
// so a frame over the bound is refused unread; a body whose decoded value would cost more than the
// bound (or nest deeper) is refused before it is decoded (scan-serialized-value.ts); and a body that
// does not deserialize is an error value here, never an exception thrown past the channel.
import { deserialize, serialize } from 'node:v8';
import { scanSerializedValue, type SerializedValueFault } from './scan-serialized-value.js';

const HEADER_BYTES = 4;

export function encodeFrame(value: unknown): Buffer {
  const body = serialize(value);
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  header.writeUInt32BE(body.length, 0);
  return Buffer.concat([header, body]);
}

export type FrameFault = { code: 'ipc_message_too_large' | 'ipc_message_malformed' | 'ipc_message_too_deep'; message: string };

export type Frame = { ok: true; value: unknown } | { ok: false; fault: FrameFault };

/** Splits a byte stream into frames; after the first fault it reads nothing more. */
export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private failed = false;

  /** `maxFrameBytes` bounds a frame's bytes and its decoded value alike; `maxDepth` its nesting. */
  constructor(
    private readonly maxFrameBytes: number,
    private readonly maxDepth = Number.POSITIVE_INFINITY,
  ) {}

  /** The frames `chunk` completes, in order; a fault is the last one. */
  push(chunk: Buffer): Frame[] {
    if (this.failed) return [];
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const frames: Frame[] = [];
    while (this.buffered >= HEADER_BYTES) {
      const head = this.peek(HEADER_BYTES);
      const length = head.readUInt32BE(0);
      if (length > this.maxFrameBytes) {
        return this.fail(frames, 'ipc_message_too_large', `the provider sent a message of ${length} bytes; the bound is ${this.maxFrameBytes} (runtime.maxMessageBytes)`);
      }
      if (this.buffered < HEADER_BYTES + length) break;
      const body = this.take(HEADER_BYTES + length).subarray(HEADER_BYTES);
      const costly: SerializedValueFault | undefined = scanSerializedValue(body, this.maxFrameBytes, this.maxDepth);
      if (costly) return this.fail(frames, costly.code, costly.message);
      try {
        frames.push({ ok: true, value: deserialize(body) });
      } catch (error) {
        return this.fail(frames, 'ipc_message_malformed', `the provider sent a message that does not deserialize (${(error as Error).message})`);
      }
    }
    return frames;
  }

  private fail(frames: Frame[], code: FrameFault['code'], message: string): Frame[] {
    this.failed = true;
    this.chunks = [];
    this.buffered = 0;
    frames.push({ ok: false, fault: { code, message } });
    return frames;
  }

  private peek(bytes: number): Buffer {
    if (this.chunks[0]!.length < bytes) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0]!;
  }

  private take(bytes: number): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.chunks = all.length > bytes ? [all.subarray(bytes)] : [];
    this.buffered -= bytes;
    return all.subarray(0, bytes);
  }
}
