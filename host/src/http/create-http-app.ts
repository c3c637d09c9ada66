import Router from '@koa/router';
import Koa from 'koa';
import type { ApiContext } from './api-context.js';
import { errorMiddleware } from './error-middleware.js';
import { extensionCatalogRoutes } from './extension-catalog-routes.js';
import { extensionRoutes } from './extension-routes.js';
import { loopbackGuard } from './loopback-guard.js';
import { operationBridgeRoute } from './operation-bridge-route.js';
import { operationRoutes } from './operation-routes.js';
import { terminalRoutes } from './terminal-routes.js';
import { tokenGuard } from './token-guard.js';

/**
 * The service's HTTP app. Order is the security model: errors are shaped first, then the
 * loopback peer and Host checks, then the token — all before any route handler can run.
 */
export function createHttpApp(api: ApiContext): Koa {
  const app = new Koa({ proxy: false });
  // Errors are answered by errorMiddleware; Koa's default handler would only print them.
  app.silent = true;
  app.use(errorMiddleware(api.logger));
  app.use(loopbackGuard());
  app.use(tokenGuard(api.token));

  const router = new Router();
  router.get('/api/health', (ctx) => {
    ctx.body = { ok: true, version: api.hostVersion, pid: process.pid };
  });
  // Every declared operation with a route, then the bridge other local processes use for the rest.
  operationRoutes(router, api.invoker);
  operationBridgeRoute(router, api.invoker);
  terminalRoutes(router, api);
  // Before extensionRoutes: GET /api/extensions/catalog is not an extension id.
  if (api.catalog) extensionCatalogRoutes(router, { catalog: api.catalog });
  extensionRoutes(router, api);
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
