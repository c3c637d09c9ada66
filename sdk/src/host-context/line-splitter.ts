/**
 * Splits chunked text into lines the way `readLines` does, a chunk at a time: `push` returns the
 * lines a chunk completed, `end` the last line without a newline. Each line is one slice of the
 * chunk (with the unfinished line before it), so a chunk of many lines costs no copying of the rest.
 */
export class LineSplitter {
  private pending = '';

  push(chunk: string): string[] {
    const text = this.pending === '' ? chunk : this.pending + chunk;
    const lines: string[] = [];
    let start = 0;
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      // A `\r` before the `\n` is dropped, so CRLF output reads the same.
      lines.push(text.slice(start, newline > start && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline));
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    this.pending = start === 0 ? text : text.slice(start);
    return lines;
  }

  /** The last line, when the text did not end with a newline; nothing otherwise. */
  end(): string[] {
    const rest = this.pending;
    this.pending = '';
    if (rest.length === 0) return [];
    return [rest.endsWith('\r') ? rest.slice(0, -1) : rest];
  }
}
