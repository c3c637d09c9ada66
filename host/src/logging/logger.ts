import { appendFileSync, chmodSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Redactor } from './redactor.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface LogRecord {
  time: string;
  level: LogLevel;
  message: string;
  [field: string]: unknown;
}

export interface LoggerOptions {
  /** JSON lines are appended here. */
  file?: string;
  /** Also write records at or above this level to stderr (never stdout: it may carry a protocol). */
  stderrLevel?: LogLevel;
  redactor?: Redactor;
  /** Tests read what was logged. */
  sink?: (record: LogRecord) => void;
}

/** The host logger: every record is redacted before it is written anywhere. */
export class Logger {
  readonly redactor: Redactor;

  constructor(private readonly options: LoggerOptions = {}, private readonly bound: Record<string, unknown> = {}) {
    this.redactor = options.redactor ?? new Redactor();
    if (options.file) {
      mkdirSync(dirname(options.file), { recursive: true, mode: 0o700 });
      // The log may hold what a provider printed: owner-only, also when an older svc left it readable.
      try {
        chmodSync(options.file, 0o600);
      } catch {
        // not created yet: appendFileSync creates it 0600
      }
    }
  }

  child(fields: Record<string, unknown>): Logger {
    return new Logger({ ...this.options, redactor: this.redactor }, { ...this.bound, ...fields });
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

  private write(level: LogLevel, message: string, fields?: Record<string, unknown>): void {
    const record = this.redactor.value({
      time: new Date().toISOString(),
      level,
      message,
      ...this.bound,
      ...fields,
    }) as LogRecord;
    this.options.sink?.(record);
    const line = `${JSON.stringify(record)}\n`;
    if (this.options.file) {
      try {
        appendFileSync(this.options.file, line, { mode: 0o600 });
      } catch {
        // a full disk must not take the host down; the record is lost
      }
    }
    if (this.options.stderrLevel && ORDER[level] >= ORDER[this.options.stderrLevel]) {
      process.stderr.write(`[${level}] ${record.message}\n`);
    }
  }
}
