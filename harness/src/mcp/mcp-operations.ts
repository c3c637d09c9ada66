// Every operation `svc mcp` mounts, from the host and the harness alike. The capability definition
// decides which of them are tools and which profiles see them.
import { dailySummary, dailyTodo } from '../../../host/src/daily/index.js';
import {
  askProjectKnowledge,
  globalSearch,
  identifyProject,
  manageAssets,
  manageNotes,
  manageProjectFacts,
} from '../../../host/src/knowledge/index.js';
import { ALL_OPERATIONS, type AnyOperation } from '../../../host/src/operations/index.js';
import { PRODUCT_GROUP_OPERATIONS } from '../../../host/src/products/index.js';
import { TASK_DEFAULT_OPERATIONS } from '../../../host/src/task-defaults/index.js';
import { TASK_VERSION_OPERATIONS } from '../../../host/src/task-history/index.js';
import { CAPABILITY_OPERATIONS } from '../capabilities/index.js';
import { setGoalMode } from '../operations/index.js';
import { MESSAGING_TOOLS } from '../messaging/index.js';
import { relayChannelReply, ROUTING_OPERATIONS } from '../routing/index.js';
import { WORKBENCH_OPERATIONS } from '../workbench/index.js';

export const MCP_OPERATIONS: readonly AnyOperation[] = [
  ...ALL_OPERATIONS,
  ...PRODUCT_GROUP_OPERATIONS,
  ...TASK_VERSION_OPERATIONS,
  ...TASK_DEFAULT_OPERATIONS,
  identifyProject,
  askProjectKnowledge,
  manageProjectFacts,
  manageNotes,
  manageAssets,
  globalSearch,
  dailySummary,
  dailyTodo,
  setGoalMode,
  ...MESSAGING_TOOLS,
  relayChannelReply,
  ...WORKBENCH_OPERATIONS,
  ...ROUTING_OPERATIONS,
  ...CAPABILITY_OPERATIONS,
];
