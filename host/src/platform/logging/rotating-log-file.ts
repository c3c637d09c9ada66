// The host log's file destination: asynchronous writes (pino's SonicBoom) to a JSON-lines file
// created owner-only, rotated by size (svc.log → svc.log.1 … svc.log.<keep>), flushed
// synchronously before the process exits so a short-lived CLI loses nothing.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type pino from 'pino';
import { loadPino } from './load-pino.js';

type Boom = ReturnType<typeof pino.destination>;

export interface RotatingLogFileOptions {
  /** Rotate once the file passes this many bytes (default 10 MiB). */
  maxBytes?: number;
  /** Rotated files kept beside the live one (default 5). */
  keep?: number;
}

export const LOG_ROTATION_DEFAULTS = { maxBytes: 10 * 1024 * 1024, keep: 5 } as const;

export class RotatingLogFile {
  private boom: Boom | undefined;
  private size = 0;
  private readonly maxBytes: number;
  private readonly keep: number;
  private readonly flushOnExit = () => this.flushSync();

  constructor(readonly file: string, options: RotatingLogFileOptions = {}) {
    this.maxBytes = options.maxBytes ?? LOG_ROTATION_DEFAULTS.maxBytes;
    this.keep = options.keep ?? LOG_ROTATION_DEFAULTS.keep;
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    // The log may hold what a provider printed: owner-only, also when an older svc left it readable.
    if (existsSync(file)) chmodSync(file, 0o600);
    process.once('exit', this.flushOnExit);
  }

  /** pino calls this with one serialized record (a line). */
  write(line: string): boolean {
    try {
      const boom = this.boom ?? this.open();
      boom.write(line);
      this.size += Buffer.byteLength(line);
      if (this.size >= this.maxBytes) this.rotate();
    } catch {
      // a full disk or a removed directory must not take the host down; the record is lost
    }
    return true;
  }

  flushSync(): void {
    try {
      this.boom?.flushSync();
    } catch {
      // nothing pending, or the file is gone
    }
  }

  /**
   * Writes what is pending, in order, and closes; a later write opens the file again. Asynchronous:
   * a synchronous flush while a write is in flight would put the last records before it.
   */
  close(): Promise<void> {
    process.removeListener('exit', this.flushOnExit);
    const boom = this.boom;
    this.boom = undefined;
    if (!boom) return Promise.resolve();
    return new Promise((resolve) => {
      boom.once('close', () => resolve());
      boom.once('error', () => resolve());
      boom.end();
    });
  }

  private open(): Boom {
    // Opened here, synchronously, so the destination is ready at once (a SonicBoom that opens
    // its file itself cannot flush before it is ready) and created mode 0600.
    const fd = openSync(this.file, 'a', 0o600);
    this.size = statSync(this.file).size;
    this.boom = loadPino().destination({ fd, sync: false, minLength: 0 });
    this.boom.on('error', () => undefined);
    return this.boom;
  }

  private rotate(): void {
    const old = this.boom;
    this.boom = undefined;
    // The old stream keeps its descriptor: what it still holds lands, in order, in the renamed file.
    old?.end();
    for (let i = this.keep; i >= 1; i--) {
      const from = i === 1 ? this.file : `${this.file}.${i - 1}`;
      const to = `${this.file}.${i}`;
      if (i === this.keep && existsSync(to)) rmSync(to, { force: true });
      if (existsSync(from)) renameSync(from, to);
    }
    closeSync(openSync(this.file, 'a', 0o600));
    this.size = 0;
  }
}
