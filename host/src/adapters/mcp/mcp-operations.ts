// Every operation `svc mcp` mounts, from the host and the harness alike. The capability definition
// decides which of them are tools and which profiles see them.
import { HOST_OPERATIONS } from '../../../host/src/host-operations.js';
import type { AnyOperation } from '../../../host/src/operations/index.js';
import { CAPABILITY_OPERATIONS } from '../capabilities/index.js';
import { setGoalMode } from '../operations/index.js';
import { MESSAGING_TOOLS } from '../messaging/index.js';
import { relayChannelReply, ROUTING_OPERATIONS } from '../routing/index.js';
import { WORKBENCH_OPERATIONS } from '../workbench/index.js';

export const MCP_OPERATIONS: readonly AnyOperation[] = [
  ...HOST_OPERATIONS,
  setGoalMode,
  ...MESSAGING_TOOLS,
  relayChannelReply,
  ...WORKBENCH_OPERATIONS,
  ...ROUTING_OPERATIONS,
  ...CAPABILITY_OPERATIONS,
];
