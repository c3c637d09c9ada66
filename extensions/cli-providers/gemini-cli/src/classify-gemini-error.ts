import { ErrorCodes, type FinishReason } from '@svc-org/ai-sdk';
import { GeminiErrorCodes } from './gemini-error-codes.js';

export interface GeminiFailure {
  /** The process exit code; API errors exit with the HTTP status modulo 256 (400 → 144). */
  exitCode?: number | null;
  /** `error.type` of a result line or of the JSON error object (the CLI's error class name). */
  errorType?: string;
  /** `error.code` of the JSON error object: an exit code, or the HTTP status of an API error. */
  errorCode?: number;
  message?: string;
}

export interface GeminiErrorClass {
  code: string;
  finishReason: FinishReason;
}

const BY_TYPE: Record<string, GeminiErrorClass> = {
  FatalTurnLimitedError: { code: ErrorCodes.maxTurns, finishReason: 'max-turns' },
  FatalCancellationError: { code: ErrorCodes.cancelled, finishReason: 'cancelled' },
  FatalAuthenticationError: { code: ErrorCodes.cliAuthFailed, finishReason: 'error' },
  FatalUntrustedWorkspaceError: { code: GeminiErrorCodes.untrustedFolder, finishReason: 'error' },
};

// Exit codes of packages/core/src/utils/errors.ts in 0.61.0.
const BY_EXIT: Record<number, GeminiErrorClass> = {
  41: BY_TYPE.FatalAuthenticationError!,
  53: BY_TYPE.FatalTurnLimitedError!,
  55: BY_TYPE.FatalUntrustedWorkspaceError!,
  130: BY_TYPE.FatalCancellationError!,
};

const AUTH_STATUSES = new Set(['UNAUTHENTICATED', 'PERMISSION_DENIED']);

/** Maps what the CLI said about a failure to a stable code and a finish reason. */
export function classifyGeminiError(failure: GeminiFailure): GeminiErrorClass {
  const byType = failure.errorType ? BY_TYPE[failure.errorType] : undefined;
  if (byType) return byType;
  const api = failure.message ? apiErrorOf(failure.message) : undefined;
  const httpCode = api?.code ?? (failure.errorCode !== undefined && failure.errorCode >= 100 ? failure.errorCode : undefined);
  if (api || httpCode !== undefined) {
    const auth =
      httpCode === 401 ||
      httpCode === 403 ||
      (api?.status !== undefined && AUTH_STATUSES.has(api.status)) ||
      api?.reasons.includes('API_KEY_INVALID') === true;
    return { code: auth ? ErrorCodes.cliAuthFailed : ErrorCodes.cliApiError, finishReason: 'error' };
  }
  const exit = failure.errorCode ?? failure.exitCode;
  if (typeof exit === 'number' && BY_EXIT[exit]) return BY_EXIT[exit]!;
  return { code: ErrorCodes.cliFailed, finishReason: 'error' };
}

interface ApiError {
  code?: number;
  status?: string;
  reasons: string[];
}

/** The Google API error body the CLI embeds in its message (`[API Error: {"error":{…}}]` or the bare JSON). */
function apiErrorOf(message: string): ApiError | undefined {
  const start = message.indexOf('{"error"');
  const end = message.lastIndexOf('}');
  if (start === -1 || end < start) return undefined;
  try {
    const body = JSON.parse(message.slice(start, end + 1)) as { error?: Record<string, unknown> };
    const error = body.error;
    if (typeof error !== 'object' || error === null) return undefined;
    const details = Array.isArray(error.details) ? (error.details as Array<Record<string, unknown>>) : [];
    return {
      code: typeof error.code === 'number' ? error.code : undefined,
      status: typeof error.status === 'string' ? error.status : undefined,
      reasons: details.map((detail) => detail?.reason).filter((reason): reason is string => typeof reason === 'string'),
    };
  } catch {
    return undefined;
  }
}
