// Every operation `svc mcp` mounts, from the host and the harness alike. The capability definition
// decides which of them are tools and which profiles see them.
import { HOST_OPERATIONS } from '../../host-operations.js';
import type { AnyOperation } from '../../operations/index.js';
import { harnessPlugin } from '../../../../harness/src/feature.js';

export const MCP_OPERATIONS: readonly AnyOperation[] = [
  ...HOST_OPERATIONS,
  // The harness says which of its operations `svc mcp` mounts.
  ...harnessPlugin.placement.mcp,
];
