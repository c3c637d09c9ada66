// Secrets never reach a log, an error or an API response: every text the host emits about a
// plugin or a connection passes through one Redactor.
export const SENSITIVE_KEY = /(token|secret|password|passwd|api[-_]?key|authorization|credential|private[-_]?key)/i;
const TOKEN_PATTERNS: RegExp[] = [
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g,
  /\bsk-[A-Za-z0-9_-]{12,}/g,
  /\b(ghp|gho|ghs|github_pat)_[A-Za-z0-9_]{16,}/g,
  /\bAIza[0-9A-Za-z_-]{20,}/g,
];
/** One pass that says whether any token shape is present at all (most texts have none). */
const ANY_TOKEN = new RegExp(TOKEN_PATTERNS.map((pattern) => pattern.source).join('|'));
/** No registered secret (4+ characters) and no token shape fits in a shorter text. */
const SHORTEST_SECRET = 4;
export const REDACTED = '[redacted]';
/** What stands in for a value nested deeper than the redactor walks: cut, never written in clear. */
export const NESTING_CUT = '[nested too deep]';
export const CIRCULAR = '[circular]';
const MAX_DEPTH = 32;
/** The keywords that start a token shape (TOKEN_PATTERNS); a word at the end that begins one is held. */
const TOKEN_KEYWORDS = ['sk-', 'ghp_', 'gho_', 'ghs_', 'github_pat_', 'AIza'];
const SCHEME_KEYWORDS = ['Bearer', 'Basic'];
/** The characters of a token (TOKEN_PATTERNS' classes together). */
const TOKEN_CHAR = /[A-Za-z0-9._~+/=_-]/;
/** A stream holds back at most this much of a token shape that has not ended. */
const MAX_HELD_TOKEN = 512;

export class Redactor {
  private readonly secrets = new Set<string>();
  /** Longest first, so a secret that contains another is replaced whole; rebuilt on addSecret. */
  private ordered: string[] = [];

  /** Registers a value that must never appear verbatim (a sensitive config value, a token). */
  addSecret(value: string | undefined | null): void {
    if (typeof value !== 'string' || value.length < 4 || this.secrets.has(value)) return;
    this.secrets.add(value);
    this.ordered = [...this.secrets].sort((a, b) => b.length - a.length);
  }

  text(input: string): string {
    if (input.length < SHORTEST_SECRET) return input;
    let out = input;
    for (const secret of this.ordered) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    if (!ANY_TOKEN.test(out)) return out;
    for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
    return out;
  }

  /**
   * A redacted copy of a JSON-like value. Beyond MAX_DEPTH levels the rest is replaced by a marker
   * (a secret is never let through because it sits deep); cycles become a marker too.
   */
  value(input: unknown): unknown {
    return this.walk(input, 0, new Set(), true);
  }

  /**
   * Like value(), but by value only: keys are kept as they are (for data whose shape is a
   * contract, such as stream events and results, where `inputTokens` is a count, not a token).
   */
  content(input: unknown): unknown {
    if (typeof input === 'string') return this.text(input);
    if (input === null || typeof input !== 'object') return input;
    // Most stream events are flat records of strings and numbers: copy them without the walk.
    if (!Array.isArray(input)) {
      const out: Record<string, unknown> = {};
      let flat = true;
      for (const key in input) {
        const item = (input as Record<string, unknown>)[key];
        if (typeof item === 'string') out[key] = this.text(item);
        else if (item === null || typeof item !== 'object') out[key] = item;
        else {
          flat = false;
          break;
        }
      }
      if (flat) return this.redactKeys(out);
    }
    return this.walk(input, 0, new Set(), false);
  }

  private walk(input: unknown, depth: number, seen: Set<object>, byKey: boolean): unknown {
    if (typeof input === 'string') return this.text(input);
    if (input === null || typeof input !== 'object') return input;
    if (depth >= MAX_DEPTH) return NESTING_CUT;
    if (seen.has(input)) return CIRCULAR;
    seen.add(input);
    try {
      if (Array.isArray(input)) return input.map((item) => this.walk(item, depth + 1, seen, byKey));
      if (input instanceof Error) return { name: input.name, message: this.text(input.message) };
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(input)) {
        out[key] = byKey && SENSITIVE_KEY.test(key) && item !== undefined && item !== null && item !== '' ? REDACTED : this.walk(item, depth + 1, seen, byKey);
      }
      return this.redactKeys(out);
    } finally {
      seen.delete(input);
    }
  }

  /**
   * Where a stream may cut `text`: what follows the cut could be the start of a secret or a token
   * shape that the stream's next piece completes, so it is held back until the stream knows (see
   * CallChannel). The cut never falls inside a secret the text holds whole.
   */
  streamCut(text: string): number {
    let held = 0;
    for (const secret of this.ordered) {
      // The earliest start within the last secret.length - 1 characters that the secret begins with.
      const first = secret[0]!;
      for (let start = Math.max(0, text.length - secret.length + 1); start < text.length - held; start++) {
        if (text[start] === first && secret.startsWith(text.slice(start))) {
          held = text.length - start;
          break;
        }
      }
    }
    held = Math.max(held, tokenStartAtEnd(text));
    let cut = text.length - held;
    for (let moved = held > 0; moved; ) {
      moved = false;
      for (const secret of this.ordered) {
        const at = text.lastIndexOf(secret, cut - 1);
        if (at >= 0 && at < cut && at + secret.length > cut) {
          cut = at;
          moved = true;
        }
      }
    }
    return cut;
  }

  /** Keys are text too: a secret used as a key is replaced like a value (numbered when two collide). */
  private redactKeys(record: Record<string, unknown>): Record<string, unknown> {
    let out: Record<string, unknown> | undefined;
    for (const key of Object.keys(record)) {
      if (this.text(key) === key) continue;
      out ??= {};
    }
    if (!out) return record;
    for (const [key, item] of Object.entries(record)) {
      let name = this.text(key);
      for (let n = 2; Object.hasOwn(out, name); n++) name = `${this.text(key)} (${n})`;
      out[name] = item;
    }
    return out;
  }
}

/**
 * How long the token shape that may be starting at the end of `text` is: a last word that begins
 * with a token keyword (or with 2+ characters of one), or `Bearer`/`Basic` with what follows it.
 * 0 when there is none, or when it is longer than a stream holds back.
 */
function tokenStartAtEnd(text: string): number {
  let start = text.length;
  while (start > 0 && text.length - start <= MAX_HELD_TOKEN && TOKEN_CHAR.test(text[start - 1]!)) start--;
  if (text.length - start > MAX_HELD_TOKEN) return 0;
  const word = text.slice(start);
  const atBoundary = start === 0 || !/\w/.test(text[start - 1]!);
  const begins = (keyword: string) => (word.length >= 2 && keyword.startsWith(word)) || word.startsWith(keyword);
  if (atBoundary && word.length > 0 && (TOKEN_KEYWORDS.some(begins) || SCHEME_KEYWORDS.some(begins))) return word.length;
  // `Bearer <token…` or `Bearer ` with the token still to come.
  let space = start;
  while (space > 0 && /\s/.test(text[space - 1]!)) space--;
  if (space === start) return 0;
  for (const scheme of SCHEME_KEYWORDS) {
    const at = space - scheme.length;
    if (at >= 0 && text.startsWith(scheme, at) && (at === 0 || !/\w/.test(text[at - 1]!))) {
      return text.length - at <= MAX_HELD_TOKEN ? text.length - at : 0;
    }
  }
  return 0;
}

