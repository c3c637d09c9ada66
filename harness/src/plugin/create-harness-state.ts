import { EventEmitter } from 'node:events';
import type { PluginHost } from '@svc-org/host/host-plugin';
import { ApprovalStore } from '../approvals/approval-store.js';
import { ChannelStore } from '../gateways/channel-store.js';
import { GatewayStore } from '../gateways/gateway-store.js';
import { MessageStore } from '../messaging/message-store.js';
import { PushRoutes } from '../messaging/push-routes.js';
import { McpTokenStore } from '../mcp/tokens/mcp-token-store.js';
import { ConversationStore } from '../routing/conversation-store.js';
import { InboundStore } from '../routing/inbound-store.js';
import { WorkbenchStore } from '../workbench/workbench-store.js';
import type { HarnessState } from './harness-state.js';

/** Makes the harness's stores over a host that has just opened (its migrations applied). */
export function createHarnessState(host: PluginHost): HarnessState {
  const approvalEvents = new EventEmitter();
  approvalEvents.setMaxListeners(0);
  const channels = new ChannelStore(host.db);
  const messages = new MessageStore(host.db);
  return {
    gateways: new GatewayStore(host.db, host.logger.redactor),
    channels,
    messages,
    pushRoutes: new PushRoutes(host.db, messages, channels),
    events: new EventEmitter(),
    inbound: new InboundStore(host.db),
    conversations: new ConversationStore(host.db),
    workbench: new WorkbenchStore(host.db),
    approvals: new ApprovalStore(host.db),
    approvalEvents,
    mcpTokens: new McpTokenStore(host.db),
  };
}
