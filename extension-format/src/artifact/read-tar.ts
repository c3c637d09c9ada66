// A deliberately small tar reader (ustar, pax `x` records, GNU long names) that reports every entry
// as written — raw path, link target and type — and interprets nothing: no path cleanup, no stripping,
// no guessing. Whatever the archive says reaches the checks unchanged. Global pax headers, sparse files
// and unknown entry types are refused rather than half-understood.
import { SvcError } from '@svc-org/ai-sdk';
import type { ByteReader } from './byte-reader.js';
import { InstallErrorCodes } from './install-error-codes.js';

const BLOCK = 512;
/** Extended headers (pax records, GNU long names) above this are refused: paths are never that long. */
export const MAX_TAR_META_BYTES = 1024 * 1024;

export type TarEntryType =
  | 'file'
  | 'directory'
  | 'symlink'
  | 'hardlink'
  | 'character-device'
  | 'block-device'
  | 'fifo'
  | 'unsupported';

export interface TarEntry {
  /** The path exactly as the archive gives it (pax or GNU long name if present, else prefix/name). */
  path: string;
  linkpath: string;
  type: TarEntryType;
  /** The raw typeflag character, for messages. */
  typeflag: string;
  /** Bytes of body that follow (0 for anything but files). */
  size: number;
  /** Bytes of extended headers that preceded this entry; they count towards the unpacked bound. */
  metaBytes: number;
  /** The body, exactly `size` bytes; whatever is not consumed is skipped before the next entry. */
  body: AsyncIterable<Buffer>;
}

const TYPES: Record<string, TarEntryType> = {
  '0': 'file',
  '\0': 'file',
  '1': 'hardlink',
  '2': 'symlink',
  '3': 'character-device',
  '4': 'block-device',
  '5': 'directory',
  '6': 'fifo',
};

export async function* readTar(reader: ByteReader): AsyncGenerator<TarEntry> {
  let pending: { path?: string; linkpath?: string; size?: number; metaBytes: number; seen: Set<string> } = {
    metaBytes: 0,
    seen: new Set(),
  };
  for (;;) {
    const block = await reader.read(BLOCK);
    // End of archive: a zero block (or the stream simply ending at a block boundary). Anything after it
    // is never read, so trailing data can neither be extracted nor inflate forever.
    if (block === null || block.every((byte) => byte === 0)) {
      if (pending.seen.size > 0) throw invalid('the archive ends after an extended header');
      return;
    }
    verifyChecksum(block);
    const typeflag = String.fromCharCode(block[156]!);
    const size = numeric(block, 124, 12, 'size');

    if (typeflag === 'x' || typeflag === 'L' || typeflag === 'K') {
      if (pending.seen.has(typeflag)) throw invalid(`two extended headers of type "${typeflag}" for one entry`);
      if (size > MAX_TAR_META_BYTES) throw invalid(`an extended header of ${size} bytes (limit ${MAX_TAR_META_BYTES})`);
      const body = size === 0 ? Buffer.alloc(0) : await reader.read(size);
      if (body === null) throw invalid('the archive ends inside an extended header');
      await reader.skip(padding(size));
      pending.seen.add(typeflag);
      pending.metaBytes += size;
      if (typeflag === 'x') Object.assign(pending, parsePax(body));
      else if (typeflag === 'L') pending.path = cString(body, 0, body.length, 'long name');
      else pending.linkpath = cString(body, 0, body.length, 'long link name');
      continue;
    }

    const path = pending.path ?? headerPath(block);
    const linkpath = pending.linkpath ?? cString(block, 157, 100, 'link name');
    const bodySize = pending.size ?? size;
    let type = TYPES[typeflag] ?? 'unsupported';
    // Old archivers mark folders as files whose name ends with "/"; every tar honours that, so do we.
    if (type === 'file' && path.endsWith('/')) type = 'directory';
    if (type === 'directory' && bodySize !== 0) throw invalid(`folder "${path}" declares ${bodySize} bytes of contents`);
    const metaBytes = pending.metaBytes;
    pending = { metaBytes: 0, seen: new Set() };

    let left = bodySize;
    async function* body(): AsyncGenerator<Buffer> {
      for await (const chunk of reader.stream(left)) {
        left -= chunk.length;
        yield chunk;
      }
    }
    yield { path, linkpath, type, typeflag, size: type === 'file' ? bodySize : 0, metaBytes, body: body() };
    await reader.skip(left + padding(bodySize));
  }
}

function padding(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK;
}

function headerPath(block: Buffer): string {
  const name = cString(block, 0, 100, 'name');
  // POSIX ustar ("ustar\0") splits long paths into prefix + "/" + name; GNU ("ustar  ") has no prefix.
  if (block.subarray(257, 263).toString('latin1') === 'ustar\0') {
    const prefix = cString(block, 345, 155, 'prefix');
    if (prefix !== '') return `${prefix}/${name}`;
  }
  return name;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function cString(buffer: Buffer, offset: number, length: number, field: string): string {
  const bytes = buffer.subarray(offset, offset + length);
  const end = bytes.indexOf(0);
  try {
    return utf8.decode(end === -1 ? bytes : bytes.subarray(0, end));
  } catch {
    throw new SvcError({ code: InstallErrorCodes.artifactUnsafePath, message: `an entry ${field} is not valid UTF-8` });
  }
}

function numeric(block: Buffer, offset: number, length: number, field: string): number {
  const raw = block.subarray(offset, offset + length);
  // GNU base-256: high bit set, big-endian two's complement; only non-negative values are meaningful here.
  if (raw[0]! & 0x80) {
    if (raw[0] === 0xff) throw invalid(`negative ${field} field`);
    let value = raw[0]! & 0x7f;
    for (let i = 1; i < raw.length; i++) value = value * 256 + raw[i]!;
    if (!Number.isSafeInteger(value)) throw invalid(`${field} field out of range`);
    return value;
  }
  const text = raw.toString('latin1').replace(/[\0 ]+$/, '').replace(/^ +/, '');
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw invalid(`${field} field is not octal`);
  return Number.parseInt(text, 8);
}

function verifyChecksum(block: Buffer): void {
  const stored = numeric(block, 148, 8, 'checksum');
  let sum = 8 * 0x20;
  for (let i = 0; i < 148; i++) sum += block[i]!;
  for (let i = 156; i < BLOCK; i++) sum += block[i]!;
  if (sum !== stored) throw invalid('a header checksum does not match (not a tar archive, or a corrupt one)');
}

function parsePax(body: Buffer): { path?: string; linkpath?: string; size?: number } {
  const result: { path?: string; linkpath?: string; size?: number } = {};
  let offset = 0;
  while (offset < body.length) {
    // Each record is "<length> <key>=<value>\n", <length> counting the whole record in bytes.
    const space = body.indexOf(0x20, offset);
    const lengthText = space === -1 ? '' : body.subarray(offset, space).toString('latin1');
    if (!/^[1-9][0-9]*$/.test(lengthText)) {
      // NUL padding after the last record is tolerated; anything else is not.
      if (body.subarray(offset).every((byte) => byte === 0)) break;
      throw invalid('a pax record has no valid length');
    }
    const end = offset + Number(lengthText);
    if (end > body.length || body[end - 1] !== 0x0a) throw invalid('a pax record overruns its header');
    let record: string;
    try {
      record = utf8.decode(body.subarray(space + 1, end - 1));
    } catch {
      throw new SvcError({ code: InstallErrorCodes.artifactUnsafePath, message: 'a pax record is not valid UTF-8' });
    }
    const equals = record.indexOf('=');
    if (equals <= 0) throw invalid('a pax record has no key');
    const key = record.slice(0, equals);
    const value = record.slice(equals + 1);
    if (key === 'path') result.path = value;
    else if (key === 'linkpath') result.linkpath = value;
    else if (key === 'size') {
      if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value))) throw invalid('a pax size is not a number');
      result.size = Number(value);
    } else if (key.startsWith('GNU.sparse.')) throw invalid('sparse files are not supported');
    offset = end;
  }
  return result;
}

function invalid(message: string): SvcError {
  return new SvcError({ code: InstallErrorCodes.artifactInvalidMetadata, message: `tar: ${message}` });
}
