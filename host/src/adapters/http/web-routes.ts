import type Router from '@koa/router';
import { SvcError } from '@svc-org/ai-sdk';
import { clearedSessionCookie, readSessionCookie } from './session-cookie.js';
import type { WebSessions } from './web-sessions.js';

/**
 * `POST /api/web/login-link`: a fresh one-time login link, for `svc open`. Only a holder of the
 * install token may mint one: a browser session cannot extend itself into new links.
 */
export function webRoutes(router: Router, sessions: WebSessions): void {
  router.post('/api/web/login-link', (ctx) => {
    if (ctx.state.caller !== 'token') {
      throw new SvcError({ code: 'forbidden', message: 'login links are made with the install token (`svc open`), not from a browser' });
    }
    const origin = `http://${ctx.get('host')}`;
    ctx.body = { url: `${origin}/login?code=${sessions.mintLoginCode()}` };
  });
  router.post('/api/web/logout', (ctx) => {
    const session = readSessionCookie(ctx.get('cookie') || undefined);
    if (session) sessions.end(session);
    ctx.set('Set-Cookie', clearedSessionCookie());
    ctx.status = 204;
  });
}
