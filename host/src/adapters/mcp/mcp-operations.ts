// Every operation `svc mcp` mounts, from the host and the harness alike. The capability definition
// decides which of them are tools and which profiles see them.
import { HOST_OPERATIONS } from '../../host-operations.js';
import type { AnyOperation } from '../../operations/index.js';
import { CAPABILITY_OPERATIONS } from '../../../../harness/src/feature.js';
import { setGoalMode } from '../../../../harness/src/feature.js';
import { APPROVAL_TOOLS, MESSAGING_TOOLS } from '../../../../harness/src/feature.js';
import { relayChannelReply, ROUTING_OPERATIONS } from '../../../../harness/src/feature.js';
import { WORKBENCH_OPERATIONS } from '../../../../harness/src/feature.js';

export const MCP_OPERATIONS: readonly AnyOperation[] = [
  ...HOST_OPERATIONS,
  setGoalMode,
  ...MESSAGING_TOOLS,
  ...APPROVAL_TOOLS,
  relayChannelReply,
  ...WORKBENCH_OPERATIONS,
  ...ROUTING_OPERATIONS,
  ...CAPABILITY_OPERATIONS,
];
