// Browser access without the install token in the page: `svc serve` (and `svc open`) print a
// one-time login link; following it trades the code for an HttpOnly session cookie. Codes and
// sessions live in this process only, so a restart signs every browser out.
import { randomBytes, timingSafeEqual } from 'node:crypto';

export interface WebSessionsOptions {
  /** How long a printed login link stays valid (default 10 minutes). */
  codeTtlMs?: number;
  /** How long a browser session lasts without use (default 12 hours, renewed on use). */
  sessionTtlMs?: number;
  now?: () => number;
}

const DEFAULTS = { codeTtlMs: 10 * 60_000, sessionTtlMs: 12 * 3_600_000 };

export class WebSessions {
  private readonly codes = new Map<string, number>();
  private readonly sessions = new Map<string, number>();
  private readonly codeTtlMs: number;
  private readonly sessionTtlMs: number;
  private readonly now: () => number;

  constructor(options: WebSessionsOptions = {}) {
    this.codeTtlMs = options.codeTtlMs ?? DEFAULTS.codeTtlMs;
    this.sessionTtlMs = options.sessionTtlMs ?? DEFAULTS.sessionTtlMs;
    this.now = options.now ?? Date.now;
  }

  /** A fresh single-use login code. */
  mintLoginCode(): string {
    this.sweep();
    const code = randomBytes(24).toString('base64url');
    this.codes.set(code, this.now() + this.codeTtlMs);
    return code;
  }

  /** Trades a login code (once) for a new session id; undefined when used, expired or unknown. */
  redeem(code: string): string | undefined {
    const expiresAt = this.take(this.codes, code);
    if (expiresAt === undefined || expiresAt < this.now()) return undefined;
    const session = randomBytes(32).toString('base64url');
    this.sessions.set(session, this.now() + this.sessionTtlMs);
    return session;
  }

  /** True for a live session, whose lifetime this use renews. */
  touch(session: string): boolean {
    const key = this.find(this.sessions, session);
    if (key === undefined) return false;
    if (this.sessions.get(key)! < this.now()) {
      this.sessions.delete(key);
      return false;
    }
    this.sessions.set(key, this.now() + this.sessionTtlMs);
    return true;
  }

  end(session: string): void {
    const key = this.find(this.sessions, session);
    if (key !== undefined) this.sessions.delete(key);
  }

  private take(map: Map<string, number>, value: string): number | undefined {
    const key = this.find(map, value);
    if (key === undefined) return undefined;
    const expiresAt = map.get(key);
    map.delete(key);
    return expiresAt;
  }

  // Constant-time comparison: the cookie and the code are secrets.
  private find(map: Map<string, number>, value: string): string | undefined {
    const given = Buffer.from(value, 'utf8');
    for (const key of map.keys()) {
      const candidate = Buffer.from(key, 'utf8');
      if (candidate.length === given.length && timingSafeEqual(candidate, given)) return key;
    }
    return undefined;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, expiresAt] of this.codes) if (expiresAt < now) this.codes.delete(key);
    for (const [key, expiresAt] of this.sessions) if (expiresAt < now) this.sessions.delete(key);
  }
}
