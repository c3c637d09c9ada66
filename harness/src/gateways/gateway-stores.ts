import type { OperationContext } from '../../../host/src/operations/index.js';
import { ChannelStore } from './channel-store.js';
import { GatewayStore } from './gateway-store.js';

const byDb = new WeakMap<object, { gateways: GatewayStore; channels: ChannelStore }>();

/** The gateway and channel stores over one host's database, made once. */
export function gatewayStores(services: OperationContext['services']): { gateways: GatewayStore; channels: ChannelStore } {
  let stores = byDb.get(services.db);
  if (!stores) {
    stores = { gateways: new GatewayStore(services.db, services.logger.redactor), channels: new ChannelStore(services.db) };
    byDb.set(services.db, stores);
  }
  return stores;
}
