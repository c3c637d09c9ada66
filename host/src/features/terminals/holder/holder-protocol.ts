// The terminal holder's wire protocol: length-prefixed frames over a Unix socket, JSON for control
// messages and raw bytes for terminal output and input.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';

/**
 * The protocol versions this build speaks, newest last. A holder and a service use the highest both
 * speak. 2: a spawn may ask the holder to follow the new terminal at once (one round trip, where
 * version 1 takes a spawn and then an attach).
 */
export const HOLDER_PROTOCOLS = [1, 2] as const;

const KIND_JSON = 0;
const KIND_DATA = 1;
const HEADER = 5;
/** A frame larger than this is a broken or hostile peer: the connection is dropped. */
export const MAX_FRAME_BYTES = 8 * 1024 * 1024;

export interface HeldTerminalMeta {
  taskId: number;
  executionId: number;
  /** The run's private folder: removed by whoever records the end. */
  runtimeDir?: string;
}

export interface HeldTerminalExit {
  exitCode: number;
  signal: number | null;
  /** `exited`, or `keepalive` when the holder stopped it because no service came back. */
  reason: 'exited' | 'keepalive';
}

export interface HeldTerminal {
  id: number;
  pid: number;
  meta: HeldTerminalMeta;
  state: 'RUNNING' | 'PAUSED' | 'ENDED';
  start: number;
  end: number;
  exit?: HeldTerminalExit;
}

export interface HolderSpawnRequest {
  command: string;
  args: string[];
  cwd: string;
  /** The whole environment of the process (the service computes it). */
  env: Record<string, string>;
  name: string;
  cols: number;
  rows: number;
  meta: HeldTerminalMeta;
  scrollbackBytes: number;
  startOffset: number;
  /** Output shown before the CLI's own (a worktree set-up's). */
  prelude?: string;
  /** The keepalive the holder applies itself while no service is attached, and its stop timings. */
  keepaliveMs: number;
  interruptMs: number;
  stopGraceMs: number;
}

export type HolderMessage =
  | { t: 'hello'; protocols: number[]; build: string; pid: number; nonce: string }
  | { t: 'hello'; protocol: number; build: string; proof: string }
  | { t: 'welcome'; protocol: number; build: string; pid: number; terminals: HeldTerminal[] }
  | { t: 'refused'; code: string; message: string }
  /** `follow` (protocol 2): the holder follows the new terminal from its first byte, as an attach would. */
  | { t: 'spawn'; rid: number; request: HolderSpawnRequest; follow?: boolean }
  /** `from`: the holder follows the terminal from there (a spawn that asked it to). */
  | { t: 'spawned'; rid: number; terminal: HeldTerminal; from?: number }
  | { t: 'failed'; rid: number; code: string; message: string }
  | { t: 'attach'; rid: number; id: number; from?: number }
  | { t: 'attached'; rid: number; terminal: HeldTerminal; from: number }
  | { t: 'resize'; id: number; cols: number; rows: number }
  | { t: 'park'; id: number; parked: boolean }
  | { t: 'release'; id: number }
  | { t: 'retire' }
  | { t: 'exit'; id: number; exit: HeldTerminalExit };

export type HolderFrame = { kind: 'json'; message: HolderMessage } | { kind: 'data'; id: number; data: Buffer };

export function jsonFrame(message: HolderMessage): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  const frame = Buffer.allocUnsafe(HEADER + body.length);
  frame.writeUInt32BE(body.length + 1, 0);
  frame[4] = KIND_JSON;
  body.copy(frame, HEADER);
  return frame;
}

/** The bytes before a data frame's output: its length, its kind and the terminal's id. */
export const DATA_HEADER_BYTES = HEADER + 4;

/** Writes the header of a data frame of `length` bytes into `frame` at `at`; returns where its bytes go. */
export function writeDataHeader(frame: Buffer, at: number, id: number, length: number): number {
  frame.writeUInt32BE(length + 5, at);
  frame[at + 4] = KIND_DATA;
  frame.writeUInt32BE(id, at + HEADER);
  return at + DATA_HEADER_BYTES;
}

/** The header of a data frame of `length` bytes, to be written before them. */
export function dataHeader(id: number, length: number): Buffer {
  const header = Buffer.allocUnsafe(DATA_HEADER_BYTES);
  writeDataHeader(header, 0, id, length);
  return header;
}

export function dataFrame(id: number, data: Buffer | string): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const frame = Buffer.allocUnsafe(HEADER + 4 + body.length);
  frame.writeUInt32BE(body.length + 5, 0);
  frame[4] = KIND_DATA;
  frame.writeUInt32BE(id, HEADER);
  body.copy(frame, HEADER + 4);
  return frame;
}

/**
 * Splits a byte stream into frames; throws on a frame that is too large or of an unknown kind.
 * With `streamData`, a data frame's bytes are passed on as they arrive (a frame may come out in
 * several pieces, each a view of the chunk pushed, valid while that chunk is): nothing is joined or
 * copied, and the chunk may be a read buffer its owner reuses. Without it, every frame comes out whole.
 */
export class FrameDecoder {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The length of the frame being gathered (header included), once its header is in. */
  private needed = 0;
  /** Streaming: the terminal of the data frame being passed on, and how many of its bytes are still to come. */
  private dataId = 0;
  private dataLeft = 0;

  constructor(private readonly options: { streamData?: boolean } = {}) {}

  push(chunk: Buffer): HolderFrame[] {
    const frames: HolderFrame[] = [];
    let at = 0;
    if (this.dataLeft > 0) {
      at = Math.min(this.dataLeft, chunk.length);
      frames.push({ kind: 'data', id: this.dataId, data: chunk.subarray(0, at) });
      this.dataLeft -= at;
      if (at === chunk.length) return frames;
      chunk = chunk.subarray(at);
    }
    // Streaming, the chunk may be a buffer its owner reuses: what waits for more is copied.
    const keep = (part: Buffer) => (this.options.streamData ? Buffer.from(part) : part);
    // A large frame arrives in many chunks: they are joined once, when the whole frame is in.
    if (this.pendingBytes + chunk.length < Math.max(4, this.needed)) {
      this.pending.push(keep(chunk));
      this.pendingBytes += chunk.length;
      return frames;
    }
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    let buffer = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    at = 0;
    this.needed = 0;
    while (buffer.length - at >= 4) {
      const length = buffer.readUInt32BE(at);
      if (length < 1 || length > MAX_FRAME_BYTES) throw new Error(`frame of ${length} bytes`);
      const available = buffer.length - at - 4;
      if (this.options.streamData && available >= 5 && buffer[at + 4] === KIND_DATA && length >= 5) {
        // The header is in: the bytes that came with it go now, the rest as they arrive.
        const id = buffer.readUInt32BE(at + HEADER);
        const take = Math.min(length, available);
        if (take > 5) frames.push({ kind: 'data', id, data: buffer.subarray(at + HEADER + 4, at + 4 + take) });
        at += 4 + take;
        if (take < length) {
          this.dataId = id;
          this.dataLeft = length - take;
        }
        continue;
      }
      if (available < length) {
        // Streaming, a data frame is passed on once its header is in.
        const streamed = this.options.streamData && (available < 1 || buffer[at + 4] === KIND_DATA);
        this.needed = streamed ? Math.min(4 + length, DATA_HEADER_BYTES) : 4 + length;
        break;
      }
      const kind = buffer[at + 4];
      const body = buffer.subarray(at + HEADER, at + 4 + length);
      if (kind === KIND_JSON) frames.push({ kind: 'json', message: JSON.parse(body.toString('utf8')) as HolderMessage });
      else if (kind === KIND_DATA && body.length >= 4) frames.push({ kind: 'data', id: body.readUInt32BE(0), data: body.subarray(4) });
      else throw new Error(`frame of unknown kind ${kind}`);
      at += 4 + length;
    }
    buffer = buffer.subarray(at);
    this.pending = buffer.length > 0 ? [keep(buffer)] : [];
    this.pendingBytes = buffer.length;
    return frames;
  }
}

/** The answer to a holder's challenge: proves the client read the holder secret without sending it. */
export function holderProof(secret: string, nonce: string): string {
  return createHmac('sha256', secret).update(`svc-terminal-holder:${nonce}`).digest('hex');
}

export function proofMatches(secret: string, nonce: string, proof: unknown): boolean {
  if (typeof proof !== 'string') return false;
  const expected = Buffer.from(holderProof(secret, nonce), 'utf8');
  const given = Buffer.from(proof, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The highest protocol both sides speak, or undefined. */
export function commonProtocol(theirs: readonly number[], ours: readonly number[] = HOLDER_PROTOCOLS): number | undefined {
  return [...ours].reverse().find((version) => theirs.includes(version));
}

/** Where the holders of one SVC_HOME keep their sockets, descriptions, secret and exit log. */
export function holderPaths(svcHome: string) {
  const dir = join(svcHome, 'holders');
  return {
    dir,
    secret: join(dir, 'secret'),
    exits: join(dir, 'exits.jsonl'),
    /** One holder per build: its socket and its description. Short names: a socket path is limited to ~100 bytes. */
    socket: (build: string) => join(dir, `${buildTag(build)}.sock`),
    description: (build: string) => join(dir, `${buildTag(build)}.json`),
    log: (build: string) => join(dir, `${buildTag(build)}.log`),
  };
}

export function buildTag(build: string): string {
  return createHash('sha256').update(build).digest('hex').slice(0, 12);
}

/** What a holder publishes beside its socket. */
export interface HolderDescription {
  pid: number;
  pidStartTime: string | null;
  build: string;
  protocols: number[];
  socket: string;
  startedAt: string;
}

/** One line of the exit log: an end a holder saw, for a service that was away when it happened. */
export interface HolderExitRecord {
  executionId: number;
  taskId: number;
  pid: number;
  exit: HeldTerminalExit;
  at: string;
}
