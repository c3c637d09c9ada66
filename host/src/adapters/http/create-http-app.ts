import Router from '@koa/router';
import Koa from 'koa';
import type { ApiContext } from './api-context.js';
import { clientWentAway } from './client-went-away.js';
import { errorMiddleware } from './error-middleware.js';
import { loopbackGuard } from './loopback-guard.js';
import { operationBridgeRoute } from './operation-bridge-route.js';
import { operationRoutes } from './operation-routes.js';
import { terminalRoutes } from './terminal-routes.js';
import { tokenGuard } from './token-guard.js';
import { browserLocationGuard } from './browser-location-guard.js';
import { eventsRoute, publishChanges } from './live-updates.js';
import { webApp } from './web-app.js';
import { webRoutes } from './web-routes.js';
import { stopAllTerminalsRoute } from './stop-all-terminals-route.js';

/**
 * The service's HTTP app. Order is the security model: errors are shaped first, then the
 * loopback peer and Host checks, then the token — all before any route handler can run.
 */
export function createHttpApp(api: ApiContext): Koa {
  const app = new Koa({ proxy: false });
  // Errors are answered by errorMiddleware; Koa's default handler would only print them.
  app.silent = true;
  // An error after the answer has started (a streamed body that fails midway) cannot be answered any
  // more; errorMiddleware never sees it. Koa emits it here: it is logged, never lost. A client that
  // went away (a page navigating off its live-updates stream) is no problem of the service's: debug.
  app.on('error', (error: unknown, ctx?: Koa.Context) => {
    const fields = {
      method: ctx?.method,
      path: ctx?.path,
      code: (error as { code?: unknown })?.code ?? 'internal',
      message: error instanceof Error ? error.message : String(error),
    };
    if (clientWentAway(error)) api.logger.debug('an HTTP client went away before its answer ended', fields);
    else api.logger.warn('an HTTP answer failed after it started', fields);
  });
  app.use(errorMiddleware(api.logger));
  app.use(loopbackGuard());
  // The page itself and /login need no token; every /api request does (or a browser session).
  if (api.web) app.use(webApp({ root: api.web.root, sessions: api.web.sessions, sessionTtlSeconds: 12 * 3600 }));
  app.use(tokenGuard(api.token, api.web?.sessions));
  app.use(browserLocationGuard());
  if (api.web) app.use(publishChanges(api.web.live));

  const router = new Router();
  router.get('/api/health', (ctx) => {
    ctx.body = { ok: true, version: api.hostVersion, pid: process.pid };
  });
  if (api.web) {
    webRoutes(router, api.web.sessions);
    stopAllTerminalsRoute(router, api.terminals, api.web.live);
    router.get('/api/events', eventsRoute(api.web.live));
  }
  // Every declared operation with a route, then the bridge other local processes use for the rest.
  operationRoutes(router, api.invoker);
  operationBridgeRoute(router, api.invoker);
  terminalRoutes(router, api);
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
