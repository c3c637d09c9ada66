import type Router from '@koa/router';
import { z } from 'zod';
import type { OperationInvoker } from '../../operations/index.js';
import { readJsonBody } from './read-json-body.js';
import { refuseLocations } from './refuse-locations.js';

/** The bridge's request body: the operation's input, as JSON. */
const BridgeBody = z.unknown();

/**
 * `POST /api/internal/operations/<name>`: the one contract by which another process on this machine
 * (the CLI, `svc mcp`) runs an operation that lives in the service. Body: the input; answer: the
 * output, or the usual `{ error }` with the code's status.
 */
export function operationBridgeRoute(router: Router, invoker: OperationInvoker): void {
  router.post('/api/internal/operations/:name', async (ctx) => {
    const input = await readJsonBody(ctx, BridgeBody, 'operation input');
    // The bridge is another door to the same operation: the guards its own route applies apply here.
    if (invoker.registry.get(ctx.params.name!)?.http?.refuseLocations) refuseLocations({ body: input });
    ctx.body = { output: await invoker.invoke(ctx.params.name!, input) };
  });
}
