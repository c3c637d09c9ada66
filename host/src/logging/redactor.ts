// Secrets never reach a log, an error or an API response: every text the host emits about a
// plugin or a connection passes through one Redactor.
export const SENSITIVE_KEY = /(token|secret|password|passwd|api[-_]?key|authorization|credential|private[-_]?key)/i;
const TOKEN_PATTERNS: RegExp[] = [
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g,
  /\bsk-[A-Za-z0-9_-]{12,}/g,
  /\b(ghp|gho|ghs|github_pat)_[A-Za-z0-9_]{16,}/g,
  /\bAIza[0-9A-Za-z_-]{20,}/g,
];
export const REDACTED = '[redacted]';

export class Redactor {
  private readonly secrets = new Set<string>();

  /** Registers a value that must never appear verbatim (a sensitive config value, a token). */
  addSecret(value: string | undefined | null): void {
    if (typeof value === 'string' && value.length >= 4) this.secrets.add(value);
  }

  text(input: string): string {
    let out = input;
    // Longest first, so a secret that contains another is replaced whole.
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
    return out;
  }

  value(input: unknown, depth = 0): unknown {
    if (typeof input === 'string') return this.text(input);
    if (input === null || typeof input !== 'object' || depth > 8) return input;
    if (Array.isArray(input)) return input.map((item) => this.value(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(input)) {
      out[key] = SENSITIVE_KEY.test(key) && item !== undefined && item !== null && item !== '' ? REDACTED : this.value(item, depth + 1);
    }
    return out;
  }
}
