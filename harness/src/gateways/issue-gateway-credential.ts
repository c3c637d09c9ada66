import { z } from 'zod';
import { defineOperation, GATEWAY_CREDENTIAL_ENV } from '@svc-org/host/operation-framework';
import { issueGatewayCredentialFor } from './gateway-credential.js';
import { gatewayStores } from './gateway-stores.js';

/**
 * A person issues the gateway plugin's credential from the command line; it is shown once and then
 * exists only as a hash. Deliberately no HTTP route and no MCP tool: no page and no agent can mint one.
 */
export const issueGatewayCredential = defineOperation({
  name: 'issue_gateway_credential',
  group: 'gateway_settings',
  mcp: false,
  description: `Issue (or replace) the credential the gateway's svc plugin passes to svc mcp as ${GATEWAY_CREDENTIAL_ENV}; shown once.`,
  readOnly: false,
  runsIn: 'any',
  input: z.object({ name: z.string().min(1).max(100) }).strict(),
  output: z.object({ gateway: z.string(), env: z.literal(GATEWAY_CREDENTIAL_ENV), credential: z.string() }),
  cli: {
    command: 'gateway credential',
    positionals: ['name'],
    expects: 'exactly one gateway name',
    plugins: true,
    examples: ['svc gateway credential claw'],
    text(issued, print) {
      print.line(`${issued.env}=${issued.credential}`);
      print.line(`Put it in the ${issued.gateway} svc plugin's env setting only (not in the gateway's own environment, which its agent's tools inherit).`);
      print.line('It is shown once; running this again replaces it.');
    },
  },
  handler(input, ctx) {
    const gateway = gatewayStores(ctx.services).gateways.get(input.name);
    const credential = issueGatewayCredentialFor(ctx.services.db, gateway.id);
    return { gateway: gateway.name, env: GATEWAY_CREDENTIAL_ENV, credential };
  },
});
