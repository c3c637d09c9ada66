// The harness as the host sees it: the one module of the harness that the host's composition layer
// (host/src/app) and the MCP adapter (host/src/adapters/mcp) import: the harness's operations,
// messaging, gateways, MCP profiles and tokens, and what `svc serve` starts (loadServiceParts).
import type { HostServices } from '../../host/src/host-services.js';
import { startHarness } from './outbox/index.js';
import { routingStores, startRouting } from './routing/index.js';
import { SERVICE_OPERATIONS } from './service-operations.js';
import { reportTaskOverlap } from './workbench/index.js';

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
export { BOARD_ATTENTIONS, BOARD_GROUP_WORDS, getBoard, type BoardAttention, type BoardCard } from './board/index.js';
export { answerApproval, APPROVAL_ANSWERS, APPROVAL_TIMEOUT_ACTIONS, APPROVAL_TOOLS, listApprovals, setApprovalPolicy, type Approval } from './approvals/index.js';
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
export { MCP_PROFILES, parseMcpProfile, type McpProfile } from './mcp/mcp-profile.js';

// What the MCP adapter takes from the harness: the harness's tools it mounts, the gateway callers'
// credentials and channels, the read scope of the gateway profiles, and the MCP tokens.
export { ChannelStore, GATEWAY_CREDENTIAL_ENV, verifyGatewayCredential } from './gateways/index.js';
export { MESSAGING_TOOLS } from './messaging/index.js';
export { CAPABILITY_OPERATIONS } from './capabilities/index.js';
export { setGoalMode } from './operations/index.js';
export { relayChannelReply, ROUTING_OPERATIONS } from './routing/index.js';
export { WORKBENCH_OPERATIONS } from './workbench/index.js';
export { SCOPED_IN_HANDLER, SCOPED_READS, withinScope } from './mcp/gateway-read-scope.js';
export { mcpTokenStore, type McpTokenGrant } from './mcp/tokens/index.js';

/** Whether a task is its project's Workbench: over MCP it reaches every task of its project, not only its children. */
export function isProjectWorkbench(services: HostServices, taskId: number): boolean {
  return routingStores(services).workbench.isWorkbench(taskId);
}

/**
 * What `svc serve` starts besides the host: the operations it registers (the host's and the
 * harness's), the outbox and routing workers and the Workbench's overlap report. The modules are
 * imported statically: the MCP adapter imports this module into the `svc mcp` bundle, where a dynamic
 * import would leave the bundle's zod initialised after the MCP SDK's first use of it.
 */
export async function loadServiceParts() {
  return { startHarness, routingStores, startRouting, SERVICE_OPERATIONS, reportTaskOverlap };
}
