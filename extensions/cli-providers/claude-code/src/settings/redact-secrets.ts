import type { ClaudeCodeSettings } from './claude-code-settings.js';

const REDACTED = '[REDACTED]';

/** Removes the configured secret from text the adapter is about to put in an error, a warning or a log. */
export function redactSecrets(text: string, settings: Pick<ClaudeCodeSettings, 'apiKey'>): string {
  const secret = settings.apiKey;
  if (!secret || secret.length < 4) return text;
  return text.split(secret).join(REDACTED);
}
