import { LineSplitter } from './line-splitter.js';

/**
 * Splits a chunked text stream into lines. A line ends at `\n` (a `\r` before it is dropped, so
 * CRLF output reads the same); chunk borders may fall anywhere, even inside a line or between `\r`
 * and `\n`. A last line without a newline is yielded too; an empty stream yields nothing. Leaving
 * the loop early returns the underlying iterator, which for `ChildProcessHandle.stdout` stops reading.
 */
export async function* readLines(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  for await (const batch of readLineBatches(chunks)) for (const line of batch) yield line;
}

/**
 * `readLines` a chunk at a time: each item is the lines one chunk completed (never empty). A parser
 * loops over a batch synchronously, so a line costs no await of its own.
 */
export async function* readLineBatches(chunks: AsyncIterable<string>): AsyncGenerator<string[]> {
  const splitter = new LineSplitter();
  for await (const chunk of chunks) {
    const lines = splitter.push(chunk);
    if (lines.length > 0) yield lines;
  }
  const last = splitter.end();
  if (last.length > 0) yield last;
}
