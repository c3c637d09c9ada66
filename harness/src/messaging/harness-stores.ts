import { EventEmitter } from 'node:events';
import type { OperationContext } from '../../../host/src/operations/index.js';
import { gatewayStores, type ChannelStore, type GatewayStore } from '../gateways/index.js';
import { MessageStore } from './message-store.js';

export interface HarnessStores {
  gateways: GatewayStore;
  channels: ChannelStore;
  messages: MessageStore;
  /** Emits `enqueued` after a push commits, so an outbox worker in this process looks at once. */
  events: EventEmitter;
}

const byDb = new WeakMap<object, HarnessStores>();

/** The harness stores over one host's database, made (and the harness schema applied) once. */
export function harnessStores(services: OperationContext['services']): HarnessStores {
  let stores = byDb.get(services.db);
  if (!stores) {
    stores = {
      ...gatewayStores(services),
      messages: new MessageStore(services.db),
      events: new EventEmitter(),
    };
    byDb.set(services.db, stores);
  }
  return stores;
}
