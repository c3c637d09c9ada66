// The host logger: pino writing JSON lines asynchronously to $SVC_HOME/logs/svc.log (rotated by
// size), every record redacted by value first. Never stdout: it may carry a protocol (svc mcp).
import type pino from 'pino';
import { loadPino } from './load-pino.js';
import { Redactor } from './redactor.js';
import { RotatingLogFile, type RotatingLogFileOptions } from './rotating-log-file.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
/** Keys the logger owns: a field of that name is kept under `field.<name>` instead. */
const RESERVED = new Set(['time', 'level', 'message']);

export interface LogRecord {
  time: string;
  level: LogLevel;
  message: string;
  [field: string]: unknown;
}

export interface LoggerOptions {
  /** JSON lines are appended here (created mode 0600, rotated by size). */
  file?: string;
  rotation?: RotatingLogFileOptions;
  /** Also write records at or above this level to stderr (never stdout: it may carry a protocol). */
  stderrLevel?: LogLevel;
  redactor?: Redactor;
  /** Tests read what was logged. */
  sink?: (record: LogRecord) => void;
}

/** Shared by a logger and its children; pino is made when the first record is written. */
interface Output {
  file?: RotatingLogFile;
  pino?: pino.Logger;
}

export class Logger {
  readonly redactor: Redactor;
  private readonly output: Output;

  constructor(private readonly options: LoggerOptions = {}, private readonly bound: Record<string, unknown> = {}, output?: Output) {
    this.redactor = options.redactor ?? new Redactor();
    this.output = output ?? Logger.openOutput(options);
  }

  private static openOutput(options: LoggerOptions): Output {
    if (!options.file) return {};
    return { file: new RotatingLogFile(options.file, options.rotation) };
  }

  private pino(): pino.Logger | undefined {
    const output = this.output;
    if (!output.file || output.pino) return output.pino;
    const pino = loadPino();
    output.pino = pino(
      {
        level: 'debug',
        base: undefined,
        messageKey: 'message',
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
      },
      output.file,
    );
    return output.pino;
  }

  child(fields: Record<string, unknown>): Logger {
    return new Logger({ ...this.options, redactor: this.redactor }, { ...this.bound, ...fields }, this.output);
  }

  debug(message: string, fields?: Record<string, unknown>): void {
    this.write('debug', message, fields);
  }
  info(message: string, fields?: Record<string, unknown>): void {
    this.write('info', message, fields);
  }
  warn(message: string, fields?: Record<string, unknown>): void {
    this.write('warn', message, fields);
  }
  error(message: string, fields?: Record<string, unknown>): void {
    this.write('error', message, fields);
  }

  /** Writes out everything pending; a short-lived process calls this (or close) before it exits. */
  flush(): void {
    this.output.file?.flushSync();
  }

  /** Writes every pending record, in order, and closes the file. */
  async close(): Promise<void> {
    await this.output.file?.close();
  }

  private write(level: LogLevel, message: string, fields?: Record<string, unknown>): void {
    const merged: Record<string, unknown> = {};
    for (const [key, value] of Object.entries({ ...this.bound, ...fields })) merged[RESERVED.has(key) ? `field.${key}` : key] = value;
    const redacted = this.redactor.value(merged) as Record<string, unknown>;
    const text = this.redactor.text(String(message));
    if (this.options.sink) this.options.sink({ time: new Date().toISOString(), level, message: text, ...redacted });
    this.pino()?.[level](redacted, text);
    if (this.options.stderrLevel && ORDER[level] >= ORDER[this.options.stderrLevel]) {
      process.stderr.write(`[${level}] ${text}\n`);
    }
  }
}
