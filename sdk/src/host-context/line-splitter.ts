/** `line` without the `\r` of a CRLF ending. */
function withoutCr(line: string): string {
  return line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
}

/**
 * Splits chunked text into lines the way `readLines` does, a chunk at a time: `push` returns the
 * lines a chunk completed, `end` the last line without a newline. Each line is one slice of its
 * chunk; only a line a chunk border cut is joined (the chunk itself is never copied whole, nor
 * kept beyond its lines).
 */
export class LineSplitter {
  private pending = '';

  push(chunk: string): string[] {
    const lines: string[] = [];
    let newline = chunk.indexOf('\n');
    if (newline === -1) {
      this.pending += chunk;
      return lines;
    }
    let start = 0;
    if (this.pending !== '') {
      lines.push(withoutCr(this.pending + chunk.slice(0, newline)));
      this.pending = '';
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    while (newline !== -1) {
      // A `\r` before the `\n` is dropped, so CRLF output reads the same.
      lines.push(chunk.slice(start, newline > start && chunk.charCodeAt(newline - 1) === 13 ? newline - 1 : newline));
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    this.pending = start === 0 ? chunk : chunk.slice(start);
    return lines;
  }

  /** The last line, when the text did not end with a newline; nothing otherwise. */
  end(): string[] {
    const rest = this.pending;
    this.pending = '';
    if (rest.length === 0) return [];
    return [withoutCr(rest)];
  }
}
