import { SvcError } from '@svc-org/ai-sdk';
import type { ErrorCodeInfo } from './error-code-info.js';
import { errorCodes } from './error-codes.js';

/** An error as it may leave the process: a registered code, a message that may be shown, its status. */
export interface PublicError extends ErrorCodeInfo {
  code: string;
  message: string;
  details?: Record<string, unknown>;
  /** The error was not one the host meant to answer with (log it with its stack). */
  unexpected: boolean;
}

const INTERNAL_MESSAGE = 'internal error (see the service log)';

/**
 * Maps anything thrown to a registered code. Node system errors (ENOENT, ERR_…) and codes the host
 * does not register are internal; a code a provider invented becomes `plugin_error`, its own code
 * kept in `details.pluginCode` so the author can still find it.
 */
export function publicError(error: unknown): PublicError {
  if (SvcError.hasCode(error)) {
    const info = errorCodes()[error.code];
    const details = (error as { details?: Record<string, unknown> }).details;
    if (info && !isSystemError(error)) {
      return { code: error.code, message: info.expose ? error.message : INTERNAL_MESSAGE, ...(details && info.expose ? { details } : {}), ...info, unexpected: info.status >= 500 && !info.expose };
    }
    const pluginId = (error as { pluginId?: string }).pluginId;
    if (pluginId && /^[a-z][a-z0-9_]*$/.test(error.code)) {
      return {
        code: 'plugin_error',
        message: error.message,
        details: { ...(details ?? {}), pluginId, pluginCode: error.code },
        ...errorCodes().plugin_error!,
        unexpected: false,
      };
    }
  }
  return { code: 'internal', message: INTERNAL_MESSAGE, ...errorCodes().internal!, unexpected: true };
}

// ENOENT, EACCES, ERR_INVALID_ARG_TYPE…: a Node error, whatever object carries it.
function isSystemError(error: { code: string }): boolean {
  return /^E[A-Z0-9_]+$/.test(error.code) || typeof (error as { syscall?: unknown }).syscall === 'string';
}
