/** What `redactSecrets` puts where a secret was; the host log uses the same marker. */
export const REDACTED = '[redacted]';

/** Values shorter than this are not treated as secrets: redacting them would mangle ordinary words. */
export const MIN_SECRET_LENGTH = 4;

/**
 * Replaces every occurrence of each secret with `[redacted]`. Use it on any text an adapter is about
 * to put in an error, a warning, an event or a log line, with the connection's sensitive settings
 * (`secretValues()` picks them from the config). The host redacts its log too, but errors and events
 * reach the user as the adapter wrote them.
 */
export function redactSecrets(text: string, secrets: Iterable<string | undefined>): string {
  // Longest first, so a secret that contains another is replaced whole.
  const values = [...new Set([...secrets].filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH))];
  values.sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of values) out = out.split(secret).join(REDACTED);
  return out;
}

/** The string values of the named settings: `secretValues(config, ['apiKey'])`. */
export function secretValues(config: object, keys: readonly string[]): string[] {
  const record = config as Record<string, unknown>;
  return keys.map((key) => record[key]).filter((value): value is string => typeof value === 'string');
}
