import { ErrorCodes } from '@svc-org/ai-sdk';

// Qwen Code reports a failed model call as assistant text "[API Error: <message>]" (0.21.x even with
// a successful result, is_error false, exit 0), so the prefix is what marks it.
const API_ERROR_PREFIX = '[API Error: ';
const AUTH_FAILURE = /^(?:401|403)\b|invalid[_ ]api[_ ]key|incorrect api key|unauthori[sz]ed|authentication/i;

export function isApiErrorText(text: string): boolean {
  return text.trimStart().startsWith(API_ERROR_PREFIX);
}

/** The coded error for an "[API Error: …]" text: cli_auth_failed for 401/403 and bad keys, else cli_api_error. */
export function classifyApiError(text: string): { code: string; message: string } {
  const trimmed = text.trim();
  const inner = isApiErrorText(trimmed)
    ? trimmed.slice(API_ERROR_PREFIX.length, trimmed.endsWith(']') ? -1 : undefined).trim()
    : trimmed;
  const code = AUTH_FAILURE.test(inner) ? ErrorCodes.cliAuthFailed : ErrorCodes.cliApiError;
  return { code, message: inner };
}
