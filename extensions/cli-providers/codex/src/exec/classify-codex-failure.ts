import { ErrorCodes } from '@svc-org/ai-sdk';

// Codex reports every failed turn as free text (`turn.failed.error.message`), often the provider's
// HTTP status and body. Authentication failures get their own code so a user knows to fix the key.
const AUTH_PATTERNS = [
  /\b401 Unauthorized\b/i,
  /\b403 Forbidden\b.*\b(api key|token|auth)/i,
  /\binvalid_api_key\b/i,
  /\bIncorrect API key\b/i,
  /\bMissing environment variable\b/i, // the provider's env_key is unset
  /\bno Codex credentials\b/i,
  /\bcodex login\b/i,
];

export function classifyCodexFailure(message: string): typeof ErrorCodes.cliAuthFailed | typeof ErrorCodes.cliApiError {
  return AUTH_PATTERNS.some((pattern) => pattern.test(message)) ? ErrorCodes.cliAuthFailed : ErrorCodes.cliApiError;
}
