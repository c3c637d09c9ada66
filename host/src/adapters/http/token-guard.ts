import { timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { SvcError } from '@svc-org/ai-sdk';
import { readSessionCookie } from './session-cookie.js';
import type { WebSessions } from './web-sessions.js';

/** True when the `Authorization: Bearer <token>` header carries exactly the install token. */
export function hasInstallToken(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!, 'utf8');
  const expected = Buffer.from(token, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Who the guard let in: a local client holding the token, or a browser holding a session cookie. */
export type Caller = 'token' | 'browser';

/**
 * Every /api route needs the per-install token (defense in depth beside the loopback checks), or,
 * from the web UI, a session cookie. A browser's state-changing request must also come from this
 * origin: its Origin header must name the same loopback host and port the request was sent to.
 */
export function tokenGuard(token: string, sessions?: WebSessions): Koa.Middleware {
  return async (ctx, next) => {
    if (hasInstallToken(ctx.get('authorization') || undefined, token)) {
      ctx.state.caller = 'token' satisfies Caller;
      return next();
    }
    const session = readSessionCookie(ctx.get('cookie') || undefined);
    if (sessions && session && sessions.touch(session)) {
      if (!SAFE_METHODS.has(ctx.method)) {
        const origin = ctx.get('origin');
        if (!origin || origin !== `http://${ctx.get('host')}`) {
          throw new SvcError({ code: 'origin_not_allowed', message: 'a state-changing request from a browser must come from this service\'s own page' });
        }
      }
      ctx.state.caller = 'browser' satisfies Caller;
      return next();
    }
    ctx.set('WWW-Authenticate', 'Bearer realm="svc"');
    throw new SvcError({
      code: 'unauthorized',
      message: 'missing or wrong token: send "Authorization: Bearer <token>" with the token from $SVC_HOME/token, or open the login link `svc open` prints',
    });
  };
}
