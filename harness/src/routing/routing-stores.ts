import type { OperationContext } from '@svc-org/host/operation-framework';
import type { HarnessStores } from '../messaging/index.js';
import { harnessOf } from '../plugin/harness-state.js';
import type { WorkbenchStore } from '../workbench/workbench-store.js';
import type { ConversationStore } from './conversation-store.js';
import type { InboundStore } from './inbound-store.js';

export interface RoutingStores extends HarnessStores {
  inbound: InboundStore;
  conversations: ConversationStore;
  workbench: WorkbenchStore;
}

/** The routing stores beside the messaging ones, made when the host opened with the harness. */
export function routingStores(services: OperationContext['services']): RoutingStores {
  return harnessOf(services);
}
