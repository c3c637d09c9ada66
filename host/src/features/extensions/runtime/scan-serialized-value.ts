// What a frame of V8's serialization would cost the host once decoded, read from its bytes without
// decoding them. A frame's length alone says little: two bytes of back-reference or of an empty
// object decode to a slot and an object on the heap, and a dense array's declared length is
// allocated before its elements are read, so 64 MiB of such bytes once took the host past 1 GB.
// This walk reads the tags as a flat stream (no recursion, no value built), sums a heap estimate
// per value, and stops at the first bound it crosses; a tag outside what Node's serializer writes
// for plain data is refused. The estimate is deliberately generous to the host, not exact.

export type SerializedValueFault = { code: 'ipc_message_too_large' | 'ipc_message_too_deep' | 'ipc_message_malformed'; message: string };

/** Heap estimates, in bytes: a slot in its container, an object's header, a boxed number or a string's header. */
const SLOT = 8;
const HEAP_OBJECT = 48;
const BOXED = 16;

const BEGIN = new Set(['o', 'A', 'a', ';', "'"]);
const END = new Set(['{', '$', '@', ':', ',']);

// long: one flat loop over V8's serialization tags with its cursor, cost and depth in locals: it runs on every worker message, and helpers would pass that state around
export function scanSerializedValue(bytes: Uint8Array, maxDecodedBytes: number, maxDepth: number): SerializedValueFault | undefined {
  let at = 0;
  let cost = 0;
  let depth = 0;
  // Open errors ('r'): the depth each opened at; while the top one waits for a subtag, bytes are subtags.
  const errors: number[] = [];
  let subtagExpected = false;

  const malformed = (why: string): SerializedValueFault => ({ code: 'ipc_message_malformed', message: `the provider sent a message that does not deserialize (${why} at byte ${at})` });
  const varint = (): number | undefined => {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (at >= bytes.length) return undefined;
      const byte = bytes[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
    return undefined;
  };
  const skip = (length: number | undefined): boolean => {
    if (length === undefined || at + length > bytes.length) return false;
    at += length;
    return true;
  };
  /** A string value (tag and body) where the format puts one inside another value; its cost, or undefined. */
  const stringValue = (): number | undefined => {
    while (bytes[at] === 0) at++; // padding before a two-byte string
    const tag = String.fromCharCode(bytes[at++] ?? 0);
    if (tag !== '"' && tag !== 'c' && tag !== 'S') return undefined;
    const length = varint();
    return skip(length) ? BOXED + length! : undefined;
  };

  if (bytes[0] === 0xff) {
    at = 1;
    if (varint() === undefined) return malformed('a truncated header');
  }
  while (at < bytes.length) {
    if (subtagExpected) {
      const subtag = String.fromCharCode(bytes[at++]!);
      if ('ERFSTU'.includes(subtag)) continue;
      if (subtag === '.') {
        errors.pop();
        depth--;
        subtagExpected = errors.length > 0 && depth === errors[errors.length - 1]! + 1;
        continue;
      }
      if (subtag !== 'm' && subtag !== 's' && subtag !== 'c') return malformed(`an unknown error field "${subtag}"`);
      subtagExpected = false;
      continue;
    }
    const tag = String.fromCharCode(bytes[at++]!);
    let ok = true;
    cost += SLOT;
    if (tag === '\0') {
      cost -= SLOT;
      continue;
    } else if (BEGIN.has(tag)) {
      cost += HEAP_OBJECT;
      if (++depth > maxDepth) return { code: 'ipc_message_too_deep', message: `the provider sent a message nested deeper than ${maxDepth} levels (runtime.maxMessageDepth)` };
      if (tag === 'A' || tag === 'a') {
        const length = varint();
        if (length === undefined) return malformed('a truncated array length');
        // A dense array's backing store is allocated at its declared length, before any element.
        if (tag === 'A') cost += SLOT * length;
      }
    } else if (END.has(tag)) {
      cost -= SLOT;
      depth--;
      ok = varint() !== undefined && (tag === '$' || tag === '@' ? varint() !== undefined : true);
    } else if (tag === 'r') {
      cost += HEAP_OBJECT;
      errors.push(depth);
      if (++depth > maxDepth) return { code: 'ipc_message_too_deep', message: `the provider sent a message nested deeper than ${maxDepth} levels (runtime.maxMessageDepth)` };
      subtagExpected = true;
      continue;
    } else if ('_0TF-'.includes(tag)) {
      // An immediate value: nothing beyond its slot.
    } else if (tag === 'I' || tag === 'U' || tag === '^' || tag === '?') {
      ok = varint() !== undefined;
      if (tag === '?') cost -= SLOT;
    } else if (tag === 'N' || tag === 'D' || tag === 'n') {
      cost += tag === 'N' ? BOXED : HEAP_OBJECT;
      ok = skip(8);
    } else if (tag === 'y' || tag === 'x') {
      cost += HEAP_OBJECT;
    } else if (tag === 'Z' || tag === 'z') {
      const bitfield = varint();
      ok = bitfield !== undefined && skip(Math.floor(bitfield / 2));
      if (ok) cost += BOXED + Math.floor(bitfield! / 2);
    } else if (tag === '"' || tag === 'c' || tag === 'S') {
      const length = varint();
      ok = skip(length);
      if (ok) cost += BOXED + length!;
    } else if (tag === 's' || tag === 'R') {
      const string = stringValue();
      ok = string !== undefined && (tag === 's' || varint() !== undefined);
      if (ok) cost += HEAP_OBJECT + string!;
    } else if (tag === 'B') {
      const length = varint();
      ok = skip(length);
      if (ok) cost += HEAP_OBJECT + length!;
    } else if (tag === '~') {
      const length = varint();
      ok = varint() !== undefined && skip(length);
      if (ok) cost += HEAP_OBJECT + length!;
    } else if (tag === 'V') {
      ok = [varint(), varint(), varint(), varint()].every((value) => value !== undefined);
      cost += HEAP_OBJECT;
    } else if (tag === '\\') {
      // Node's host object: a Buffer or typed array as its type, its length and its bytes.
      const type = varint();
      const length = varint();
      ok = type !== undefined && skip(length);
      if (ok) cost += 2 * HEAP_OBJECT + length!;
    } else {
      return malformed(`a tag "${tag}" outside plain data`);
    }
    if (!ok) return malformed(`a truncated "${tag}"`);
    if (depth < 0) return malformed('an end without a beginning');
    if (cost > maxDecodedBytes) {
      return { code: 'ipc_message_too_large', message: `the provider sent a message that would take more than ${maxDecodedBytes} bytes once decoded (runtime.maxMessageBytes)` };
    }
    if (errors.length > 0 && depth === errors[errors.length - 1]! + 1) subtagExpected = true;
  }
  return undefined;
}
