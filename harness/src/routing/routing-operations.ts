import type { AnyOperation } from '../../../host/src/operations/index.js';
import { completeGatewayDiscussion } from './complete-gateway-discussion.js';
import { completeGatewayWork } from './complete-gateway-work.js';
import { confirmGatewayTaskCreated } from './confirm-gateway-task-created.js';
import { continueBoundTask } from './continue-bound-task.js';
import { diagnoseGatewayRequest } from './diagnose-gateway-request.js';
import { getGatewayRuntimeHealth } from './get-gateway-runtime-health.js';
import { observeGatewayMaintenance } from './observe-gateway-maintenance.js';
import { provisionRemoteProject } from './provision-remote-project.js';
import { recoverGatewayRequest } from './recover-gateway-request.js';
import { relayChannelReply } from './relay-channel-reply.js';
import { resolveGatewayTaskContext } from './resolve-gateway-task-context.js';
import { routeGatewayMessage } from './route-gateway-message.js';
import { routeGatewayQuery } from './route-gateway-query.js';

/** The inbound routing tools (the MCP gateway and operations surfaces). */
export const ROUTING_OPERATIONS: readonly AnyOperation[] = [
  resolveGatewayTaskContext,
  continueBoundTask,
  routeGatewayMessage,
  routeGatewayQuery,
  completeGatewayDiscussion,
  confirmGatewayTaskCreated,
  completeGatewayWork,
  diagnoseGatewayRequest,
  recoverGatewayRequest,
  getGatewayRuntimeHealth,
  provisionRemoteProject,
  observeGatewayMaintenance,
];

export { relayChannelReply };
