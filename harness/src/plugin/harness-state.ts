// The harness's state over one opened host: its stores, made once when the host opens (the plugin's
// init) over the schema its migrations made, and held by the host under the harness's key.
import type { EventEmitter } from 'node:events';
import type { OperationServices } from '@svc-org/host/operation-framework';
import type { PluginKey } from '@svc-org/host/host-plugin';
import type { ApprovalStore } from '../approvals/approval-store.js';
import type { ChannelStore } from '../gateways/channel-store.js';
import type { GatewayStore } from '../gateways/gateway-store.js';
import type { MessageStore } from '../messaging/message-store.js';
import type { PushRoutes } from '../messaging/push-routes.js';
import type { McpTokenStore } from '../mcp/tokens/mcp-token-store.js';
import type { ConversationStore } from '../routing/conversation-store.js';
import type { InboundStore } from '../routing/inbound-store.js';
import type { WorkbenchStore } from '../workbench/workbench-store.js';

export interface HarnessState {
  gateways: GatewayStore;
  channels: ChannelStore;
  messages: MessageStore;
  /** The routes of push_to_human on this connection, kept while nothing that could change them was written. */
  pushRoutes: PushRoutes;
  /** Emits `enqueued` after a push commits (the outbox worker looks at once) and `workbench` when a Workbench event is due. */
  events: EventEmitter;
  inbound: InboundStore;
  conversations: ConversationStore;
  workbench: WorkbenchStore;
  approvals: ApprovalStore;
  /** Emits `answered` with the request's id once an approval's answer commits, so a hook waiting in this process returns at once. */
  approvalEvents: EventEmitter;
  mcpTokens: McpTokenStore;
}

/** The key the host holds the harness's state under. */
export const HARNESS: PluginKey<HarnessState> = { id: 'harness' };

/** The harness's stores over the host a handler runs in (opened with the harness plugin). */
export function harnessOf(services: Pick<OperationServices, 'plugins'>): HarnessState {
  return services.plugins.stateOf(HARNESS);
}

/** The active channels (the MCP adapter's gateway callers are scoped to theirs). */
export function activeChannels(services: Pick<OperationServices, 'plugins'>): ReturnType<ChannelStore['list']> {
  return harnessOf(services).channels.list().filter((channel) => channel.active);
}

/** The MCP token store (the Streamable HTTP endpoint authenticates its clients with it). */
export function mcpTokensOf(services: Pick<OperationServices, 'plugins'>): McpTokenStore {
  return harnessOf(services).mcpTokens;
}
