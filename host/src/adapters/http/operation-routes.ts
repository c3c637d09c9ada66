import type Router from '@koa/router';
import type Koa from 'koa';
import { z } from 'zod';
import { decodeStringInput, type AnyOperation, type OperationInvoker } from '../../operation-framework/index.js';
import { readJsonBody } from './read-json-body.js';
import { refuseLocations } from './refuse-locations.js';

const AnyBody = z.record(z.string(), z.unknown());

/**
 * Mounts every operation that declares an HTTP route. Path segments and (for GET and DELETE) the
 * query are text, decoded to the types the input declares; a body is JSON, merged under the path.
 */
export function operationRoutes(router: Router, invoker: OperationInvoker): void {
  // A fixed segment wins over a parameter, whatever the declaration order: GET /api/extensions/catalog
  // is the catalog, not an extension named "catalog".
  const routed = invoker.registry.list().filter((operation) => operation.http);
  const parameters = (operation: AnyOperation) => operation.http!.path.split('/').filter((segment) => segment.startsWith(':')).length;
  for (const operation of [...routed].sort((a, b) => parameters(a) - parameters(b))) {
    const method = operation.http!.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    router[method](operation.http!.path, (ctx) => answer(ctx, invoker, operation));
  }
}

async function answer(ctx: Koa.Context & { params: Record<string, string> }, invoker: OperationInvoker, operation: AnyOperation): Promise<void> {
  const route = operation.http!;
  const body = route.method === 'GET' || route.method === 'DELETE' ? {} : await readJsonBody(ctx, AnyBody, `${operation.name} body`);
  if (route.refuseLocations) refuseLocations({ query: ctx.query, params: ctx.params, body });
  const fromText = decodeStringInput(operation.input, {
    ...(route.method === 'GET' || route.method === 'DELETE' ? (ctx.query as Record<string, unknown>) : {}),
    ...ctx.params,
  });
  const controller = new AbortController();
  ctx.req.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  const result = await invoker.invoke(operation, { ...body, ...fromText }, controller.signal);
  ctx.status = route.status ?? 200;
  if (ctx.status !== 204) ctx.body = result;
}
