import type Router from '@koa/router';
import type { AnyOperation, OperationContext } from '../../../host/src/operations/index.js';
import { readJsonBody } from '../../../host/src/http/index.js';
import { z } from 'zod';
import { runOperation } from './run-operation.js';

/**
 * Mounts operations that declare an HTTP route: path parameters and the query (GET, DELETE) or the
 * JSON body (others) form the input, which the operation's own schema checks.
 */
export function mountOperations(router: Router, operations: AnyOperation[], context: () => Omit<OperationContext, 'signal'>): void {
  for (const operation of operations) {
    const route = operation.http;
    if (!route) continue;
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    router[method](route.path, async (ctx) => {
      const fromBody = route.method === 'GET' || route.method === 'DELETE' ? { ...ctx.query } : await readJsonBody(ctx, z.record(z.string(), z.unknown()));
      const controller = new AbortController();
      ctx.req.once('close', () => {
        if (!ctx.res.writableEnded) controller.abort();
      });
      const result = await runOperation(operation, { ...fromBody, ...ctx.params }, { ...context(), signal: controller.signal });
      ctx.status = route.status ?? 200;
      if (ctx.status !== 204) ctx.body = result;
    });
  }
}
