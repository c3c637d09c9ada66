import { writeSync } from 'node:fs';
import type { Writable } from 'node:stream';

/** A stream a command writes to, with a terminal's size where it is one. */
export type CliStream = Writable & { isTTY?: boolean; columns?: number; rows?: number };

/**
 * svc's own stdout or stderr where it is a file or a pipe, written to its descriptor at once: a
 * short command makes no stream (for a pipe Node would build a socket, loading its stream and
 * network modules, about a tenth of a bare Node start). A write the descriptor cannot take now (a
 * pipe made non-blocking by another process, and full) and every write after it go through the real
 * stream, in order; so does every write once code asks for the stream itself.
 */
export class DescriptorOutput {
  readonly isTTY = false;
  /** A file or a pipe has no size. */
  readonly columns: number | undefined = undefined;
  readonly rows: number | undefined = undefined;
  private real: CliStream | undefined;

  /** `open` makes the real stream; `brokenPipe` runs when the reader has gone (`svc … | head`). */
  constructor(
    private readonly fd: number,
    private readonly open: () => CliStream,
    private readonly brokenPipe: () => void,
  ) {}

  write(chunk: string | Uint8Array): boolean {
    if (this.real) return this.real.write(chunk);
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let written = 0;
    try {
      // A pipe may take part of a large write: the rest follows.
      while (written < bytes.length) written += writeSync(this.fd, bytes, written, bytes.length - written);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') {
        this.brokenPipe();
        return false;
      }
      if (code !== 'EAGAIN') throw error;
      return this.stream().write(bytes.subarray(written));
    }
  }

  /** The real stream; from now on every write goes through it. */
  stream(): CliStream {
    return (this.real ??= this.open());
  }
}
