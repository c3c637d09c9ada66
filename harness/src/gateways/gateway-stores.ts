import type { OperationContext } from '@svc-org/host/operation-framework';
import { harnessOf } from '../plugin/harness-state.js';
import type { ChannelStore } from './channel-store.js';
import type { GatewayStore } from './gateway-store.js';

/** The gateway and channel stores, made when the host opened with the harness. */
export function gatewayStores(services: OperationContext['services']): { gateways: GatewayStore; channels: ChannelStore } {
  return harnessOf(services);
}
