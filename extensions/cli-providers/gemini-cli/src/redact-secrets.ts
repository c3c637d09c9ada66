export const REDACTED = '[redacted]';

/** Replaces every occurrence of each secret (the configured API key) before text leaves the adapter. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    // Short values would redact ordinary words; a real key is long.
    if (secret.length >= 8) out = out.split(secret).join(REDACTED);
  }
  return out;
}
