/** Splits a chunked text stream into lines (without the newline); a last unterminated line is yielded too. */
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
  if (pending.length > 0) yield pending;
}
