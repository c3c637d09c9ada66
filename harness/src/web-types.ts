// The harness's operations whose declarations the web UI takes its request and record types from
// (`web/src/operations.ts`, through `import type`: the bundler erases it, and no harness code reaches
// the browser). Nothing imports this module at run time.
export { answerApproval, listApprovals } from './approvals/approval-operations.js';
export { getBoard } from './board/get-board.js';
export { checkGatewayHealth } from './gateways/check-gateway-health.js';
export { createChannel } from './gateways/create-channel.js';
export { deleteChannel } from './gateways/delete-channel.js';
export { deleteGateway } from './gateways/delete-gateway.js';
export { listChannels } from './gateways/list-channels.js';
export { listGateways } from './gateways/list-gateways.js';
export { updateChannel } from './gateways/update-channel.js';
export { listMcpTokens, revokeMcpToken } from './mcp/tokens/mcp-token-operations.js';
export { listHarnessMessages } from './messaging/list-harness-messages.js';
export { replyToAsk } from './messaging/reply-to-ask.js';
export { resendHarnessMessage } from './messaging/resend-harness-message.js';
export { sendReviewComments } from './messaging/send-review-comments.js';
