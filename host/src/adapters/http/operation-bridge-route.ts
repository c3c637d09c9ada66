import type Router from '@koa/router';
import { z } from 'zod';
import { SvcError } from '@svc-org/ai-sdk';
import type { OperationInvoker } from '../../operation-framework/index.js';
import { readJsonBody } from './read-json-body.js';
import { refuseLocations } from './refuse-locations.js';

/** The bridge's request body: the operation's input, as JSON. */
const BridgeBody = z.unknown();

/**
 * `POST /api/internal/operations/<name>`: the one contract by which another process on this machine
 * (the CLI, `svc mcp`) runs an operation that lives in the service. Body: the input; answer: the
 * output, or the usual `{ error }` with the code's status. A browser session is refused here.
 */
export function operationBridgeRoute(router: Router, invoker: OperationInvoker): void {
  router.post('/api/internal/operations/:name', async (ctx) => {
    // Only the install token's holders: a browser session reaches the operations that have a route
    // of their own (and the guards on them), never the bridge's others — minting an MCP token among them.
    if (ctx.state.caller !== 'token') {
      throw new SvcError({
        code: 'browser_not_allowed',
        message: 'the operation bridge serves the svc command and svc mcp on this machine, not a web page',
        details: { fix: 'run the matching svc command on this machine' },
      });
    }
    const input = await readJsonBody(ctx, BridgeBody, 'operation input');
    // The bridge is another door to the same operation: the guards its own route applies apply here.
    if (invoker.registry.get(ctx.params.name!)?.http?.refuseLocations) refuseLocations({ body: input });
    ctx.body = { output: await invoker.invoke(ctx.params.name!, input) };
  });
}
