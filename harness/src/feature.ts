// The harness's entry point, the one module of the harness the host imports: the plugin the host
// wires (its migrations, operations, MCP profiles, config keys, the ports it
// fills, and what `svc serve` starts), and what the host's CLI commands and MCP adapter present of it.
export { harnessPlugin } from './plugin/harness-plugin.js';

// The operations the CLI's harness commands run (`svc status`, `svc approval`, `svc harness`,
// `svc gateway`, `svc channel`, `svc mcp token`, `svc task review`) and the words they print.
export {
  DISPLAY_STATUSES,
  getHarnessMessage,
  listHarnessMessages,
  replyToAsk,
  resendHarnessMessage,
  sendReviewComments,
  type HarnessMessage,
} from './messaging/index.js';
export { sendDueMessages } from './outbox/index.js';
export { BOARD_ATTENTIONS, BOARD_GROUP_WORDS, getBoard, type BoardAttention, type BoardCard } from './board/index.js';
export { answerApproval, APPROVAL_ANSWERS, APPROVAL_TIMEOUT_ACTIONS, listApprovals, setApprovalPolicy, type Approval } from './approvals/index.js';
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

// What the MCP adapter applies of the harness: its profiles, the gateway callers' credentials and
// channels, and the MCP tokens of Streamable HTTP clients.
export { MCP_PROFILES, parseMcpProfile, type McpProfile } from './mcp/mcp-profile.js';
export { GATEWAY_CREDENTIAL_ENV, verifyGatewayCredential } from './gateways/index.js';
export type { McpTokenGrant } from './mcp/tokens/index.js';
export { activeChannels, mcpTokensOf } from './plugin/harness-state.js';
