import type { GatewayClient } from './gateway-client.js';
import type { GatewayRecord } from './gateway-record.js';
import { HermesClient } from './hermes-client.js';
import { OpenClawClient } from './openclaw-client.js';

export interface GatewayClientSettings {
  hostVersion: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** The client of one configured gateway; the token is handed over here and nowhere else. */
export function createGatewayClient(gateway: GatewayRecord, token: string | null, settings: GatewayClientSettings): GatewayClient {
  if (gateway.kind === 'openclaw') {
    return new OpenClawClient({ url: gateway.url ?? '', token, clientVersion: settings.hostVersion, timeoutMs: settings.timeoutMs });
  }
  return new HermesClient({ command: gateway.command, env: settings.env, timeoutMs: settings.timeoutMs });
}
