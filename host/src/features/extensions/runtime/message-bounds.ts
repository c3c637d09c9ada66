// What a provider sends the host is hostile until measured: a walk without recursion (so a deep
// value cannot overflow the host's stack while it is being checked) that stops at the first bound
// it crosses. Both isolation modes check every message with it before anything else reads it.

export type MessageBoundFault = { code: 'ipc_message_too_deep' | 'ipc_message_too_large'; message: string };

/** Strings, keys and buffers are counted by length; every value adds a little for its framing. */
const VALUE_OVERHEAD = 8;

export function checkMessageBounds(value: unknown, maxDepth: number, maxBytes: number): MessageBoundFault | undefined {
  const stack: Array<[unknown, number]> = [[value, 1]];
  const seen = new Set<object>();
  let bytes = 0;
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    bytes += VALUE_OVERHEAD;
    if (typeof item === 'string') bytes += item.length;
    else if (typeof item === 'object' && item !== null) {
      if (depth > maxDepth) {
        return { code: 'ipc_message_too_deep', message: `the provider sent a message nested deeper than ${maxDepth} levels (runtime.maxMessageDepth)` };
      }
      if (seen.has(item)) continue;
      seen.add(item);
      if (ArrayBuffer.isView(item)) bytes += item.byteLength;
      else if (item instanceof ArrayBuffer || item instanceof SharedArrayBuffer) bytes += item.byteLength;
      else if (item instanceof Map) {
        for (const [key, entry] of item) stack.push([key, depth + 1], [entry, depth + 1]);
      } else if (item instanceof Set) {
        for (const entry of item) stack.push([entry, depth + 1]);
      } else if (Array.isArray(item)) {
        bytes += item.length * VALUE_OVERHEAD;
        if (bytes > maxBytes) break;
        for (let i = 0; i < item.length; i++) stack.push([item[i], depth + 1]);
      } else {
        for (const key of Object.keys(item)) {
          bytes += key.length;
          stack.push([(item as Record<string, unknown>)[key], depth + 1]);
        }
      }
    }
    if (bytes > maxBytes) break;
  }
  if (bytes > maxBytes) {
    return { code: 'ipc_message_too_large', message: `the provider sent a message of more than ${maxBytes} bytes (runtime.maxMessageBytes)` };
  }
  return undefined;
}
