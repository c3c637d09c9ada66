// Errors cross worker boundaries and bundled SDK copies, so identity is a marker, never `instanceof`.
const MARKER = Symbol.for('svc.error');

export interface SvcErrorOptions {
  code: string;
  message: string;
  pluginId?: string;
  retryable?: boolean;
  details?: Record<string, unknown>;
  cause?: unknown;
}

export interface SvcErrorData {
  code: string;
  message: string;
  pluginId?: string;
  retryable?: boolean;
  details?: Record<string, unknown>;
}

export class SvcError extends Error {
  readonly [MARKER] = true;
  readonly code: string;
  readonly pluginId?: string;
  readonly retryable: boolean;
  readonly details?: Record<string, unknown>;

  constructor(options: SvcErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SvcError';
    this.code = options.code;
    this.pluginId = options.pluginId;
    this.retryable = options.retryable ?? false;
    this.details = options.details;
  }

  static isInstance(error: unknown): error is SvcError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[MARKER] === true;
  }

  /** Any thrown value with a string `code` and `message` — what survives structured clone. */
  static hasCode(error: unknown): error is SvcErrorData {
    return (
      typeof error === 'object' &&
      error !== null &&
      typeof (error as SvcErrorData).code === 'string' &&
      typeof (error as SvcErrorData).message === 'string'
    );
  }

  toJSON(): SvcErrorData {
    return {
      code: this.code,
      message: this.message,
      ...(this.pluginId ? { pluginId: this.pluginId } : {}),
      ...(this.retryable ? { retryable: true } : {}),
      ...(this.details ? { details: this.details } : {}),
    };
  }

  static from(data: SvcErrorData): SvcError {
    return new SvcError(data);
  }
}
