import type { ChannelRecord } from '../gateways/index.js';
import type { RoutingStores } from '../routing/routing-stores.js';

export interface OfferedCapability {
  name: string;
  gateway: string;
  kind: 'openclaw' | 'hermes';
  mode: 'direct' | 'job';
  description: string;
  /** Where this scope may send: the channels' home targets, named targets and trusted groups. */
  targets: string[];
}

/**
 * What the configured gateways really offer this scope. Both kinds send one message to a chat
 * (OpenClaw's `send`, Hermes's `hermes send`); that is the one Direct capability, bounded to the
 * targets the service's own channels name. Nothing here widens what a channel allows.
 */
export function capabilityCatalog(stores: RoutingStores, channels: ChannelRecord[]): OfferedCapability[] {
  const byGateway = new Map<number, ChannelRecord[]>();
  for (const channel of channels) byGateway.set(channel.gatewayId, [...(byGateway.get(channel.gatewayId) ?? []), channel]);
  const offered: OfferedCapability[] = [];
  for (const gateway of stores.gateways.list()) {
    const served = byGateway.get(gateway.id);
    if (!gateway.active || !served) continue;
    const targets = [...new Set(served.flatMap((c) => [c.home.to, ...c.targets.map((t) => t.to), ...c.trustedGroups]))];
    offered.push({
      name: 'message.send',
      gateway: gateway.name,
      kind: gateway.kind,
      mode: 'direct',
      description: `Send one text message through ${gateway.name} (${gateway.kind}) to a chat this scope's channels name.`,
      targets,
    });
  }
  return offered;
}
