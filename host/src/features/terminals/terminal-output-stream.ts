import { Readable } from 'node:stream';
import type { Terminal } from './terminal.js';

const READ_CHUNK = 64 * 1024;

/**
 * The live output of one terminal as a byte stream, for an attached viewer. It pulls from the
 * scrollback at the reader's pace, so a slow viewer costs no memory (it skips what scrolled away);
 * while open it counts as a person attached. Ends when the terminal ends.
 */
export class TerminalOutputStream extends Readable {
  private cursor: number;
  private wanting = false;
  private readonly release: () => void;
  private readonly unsubscribe: () => void;

  constructor(private readonly terminal: Terminal, cursor?: number) {
    super({ highWaterMark: READ_CHUNK });
    this.cursor = cursor ?? terminal.buffer.start;
    this.release = terminal.attach();
    this.unsubscribe = terminal.onActivity(() => {
      if (this.wanting) this.pull();
    });
  }

  /** The offset of the next byte this stream will send. */
  get position(): number {
    return this.cursor;
  }

  override _read(): void {
    this.wanting = true;
    this.pull();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.unsubscribe();
    this.release();
    callback(error);
  }

  private pull(): void {
    while (this.wanting) {
      const read = this.terminal.buffer.read(Math.min(this.cursor, this.terminal.buffer.end), READ_CHUNK);
      if (read.data.length > 0) {
        this.cursor = read.cursor;
        this.wanting = this.push(read.data);
        continue;
      }
      if (this.terminal.state === 'ENDED') {
        this.wanting = false;
        this.unsubscribe();
        this.release();
        this.push(null);
      }
      return;
    }
  }
}
