// The harness as the host sees it: the one module of the harness that the host's composition layer
// (host/src/app) imports. What any `svc` start may need is exported as is; what only `svc serve`
// or `svc mcp` needs sits behind a loader, so a CLI start does not load the MCP server.
export { HARNESS_OPERATIONS, sendDueMessages } from './outbox/index.js';
export {
  DISPLAY_STATUSES,
  getHarnessMessage,
  listHarnessMessages,
  replyToAsk,
  resendHarnessMessage,
  sendReviewComments,
  type HarnessMessage,
} from './messaging/index.js';
export { MESSAGING_CONFIG_KEYS } from './messaging/messaging-config-keys.js';
export {
  checkGatewayHealth,
  createChannel,
  createGateway,
  deleteChannel,
  deleteGateway,
  getGateway,
  issueGatewayCredential,
  listChannels,
  listGateways,
  updateChannel,
} from './gateways/index.js';
export { createMcpToken, listMcpTokens, revokeMcpToken } from './mcp/tokens/index.js';
export { MCP_PROFILES, type McpProfile } from './mcp/mcp-profile.js';

/**
 * What `svc serve` starts besides the host: the operations it registers (the host's and the
 * harness's), the outbox and routing workers, the Workbench's overlap report and the MCP endpoint.
 */
export async function loadServiceParts() {
  const [{ McpHttpEndpoint }, { startHarness }, { routingStores, startRouting }, { SERVICE_OPERATIONS }, { reportTaskOverlap }] = await Promise.all([
    import('./mcp/http/mcp-http-endpoint.js'),
    import('./outbox/index.js'),
    import('./routing/index.js'),
    import('./service-operations.js'),
    import('./workbench/index.js'),
  ]);
  return { McpHttpEndpoint, startHarness, routingStores, startRouting, SERVICE_OPERATIONS, reportTaskOverlap };
}

/** `svc mcp`: the MCP server over stdio. */
export const loadMcpServer = () => import('./mcp/run-mcp-server.js');
