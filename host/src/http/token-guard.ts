import { timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { SvcError } from '@svc-org/ai-sdk';

/** True when the `Authorization: Bearer <token>` header carries exactly the install token. */
export function hasInstallToken(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!, 'utf8');
  const expected = Buffer.from(token, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Every /api route needs the per-install token (defense in depth beside the loopback checks). */
export function tokenGuard(token: string): Koa.Middleware {
  return async (ctx, next) => {
    if (!hasInstallToken(ctx.get('authorization') || undefined, token)) {
      ctx.set('WWW-Authenticate', 'Bearer realm="svc"');
      throw new SvcError({
        code: 'unauthorized',
        message: 'missing or wrong token: send "Authorization: Bearer <token>" with the token from $SVC_HOME/token',
      });
    }
    await next();
  };
}
