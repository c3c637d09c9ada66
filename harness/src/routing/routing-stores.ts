import type { OperationContext } from '../../../host/src/operations/index.js';
import { harnessStores, type HarnessStores } from '../messaging/index.js';
import { WorkbenchStore } from '../workbench/workbench-store.js';
import { ConversationStore } from './conversation-store.js';
import { InboundStore } from './inbound-store.js';

export interface RoutingStores extends HarnessStores {
  inbound: InboundStore;
  conversations: ConversationStore;
  workbench: WorkbenchStore;
}

const byDb = new WeakMap<object, RoutingStores>();

/** The part-2 stores beside the messaging ones, over one host's database (schema applied once). */
export function routingStores(services: OperationContext['services']): RoutingStores {
  let stores = byDb.get(services.db);
  if (!stores) {
    stores = {
      ...harnessStores(services),
      inbound: new InboundStore(services.db),
      conversations: new ConversationStore(services.db),
      workbench: new WorkbenchStore(services.db),
    };
    byDb.set(services.db, stores);
  }
  return stores;
}
