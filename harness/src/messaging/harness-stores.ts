import type { EventEmitter } from 'node:events';
import type { OperationContext } from '@svc-org/host/operation-framework';
import type { ChannelStore } from '../gateways/channel-store.js';
import type { GatewayStore } from '../gateways/gateway-store.js';
import { harnessOf } from '../plugin/harness-state.js';
import type { MessageStore } from './message-store.js';
import type { PushRoutes } from './push-routes.js';

export interface HarnessStores {
  gateways: GatewayStore;
  channels: ChannelStore;
  messages: MessageStore;
  pushRoutes: PushRoutes;
  /** Emits `enqueued` after a push commits, so an outbox worker in this process looks at once. */
  events: EventEmitter;
}

/** The messaging stores, made when the host opened with the harness. */
export function harnessStores(services: OperationContext['services']): HarnessStores {
  return harnessOf(services);
}
