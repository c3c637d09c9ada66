/**
 * Splits a chunked text stream into lines. A line ends at `\n` (a `\r` before it is dropped, so
 * CRLF output reads the same); chunk borders may fall anywhere, even inside a line or between `\r`
 * and `\n`. A last line without a newline is yielded too; an empty stream yields nothing. Leaving
 * the loop early returns the underlying iterator, which for `ChildProcessHandle.stdout` stops reading.
 */
export async function* readLines(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let pending = '';
  for await (const chunk of chunks) {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      const line = pending.slice(0, newline);
      yield line.endsWith('\r') ? line.slice(0, -1) : line;
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
  }
  if (pending.length > 0) yield pending.endsWith('\r') ? pending.slice(0, -1) : pending;
}
