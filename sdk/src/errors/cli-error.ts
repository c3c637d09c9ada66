import { SvcError } from './svc-error.js';

/** A failure reported by the wrapped CLI itself (bad exit, API error, unparsable output). */
export class CliError extends SvcError {
  constructor(options: { code: string; message: string; exitCode?: number | null; cause?: unknown; retryable?: boolean }) {
    super({
      code: options.code,
      message: options.message,
      retryable: options.retryable,
      cause: options.cause,
      details: options.exitCode === undefined ? undefined : { exitCode: options.exitCode },
    });
    this.name = 'CliError';
  }
}
