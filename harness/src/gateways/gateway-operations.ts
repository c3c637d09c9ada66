// Configuring gateways and channels (Settings, Notifications; `svc gateway` / `svc channel`).
// Tokens are write-only: they go in through create_gateway and never come back out.
import { z } from 'zod';
import { defineOperation } from '../../../host/src/operations/index.js';
import { ChannelSchema, ChannelTargetSchema } from './channel-record.js';
import { createGatewayClient } from './create-gateway-client.js';
import { GATEWAY_KINDS, GatewaySchema } from './gateway-record.js';
import { gatewayStores } from './gateway-stores.js';

const Name = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,62}$/, 'lowercase letters, digits, ".", "_" or "-" (up to 63)');
const Ref = z.object({ name: z.string().min(1).max(100) }).strict();

export const listGateways = defineOperation({
  name: 'list_gateways',
  group: 'gateways',
  description: 'The configured external gateways (tokens are never shown: only whether one is set).',
  readOnly: true,
  idempotent: true,
  runsIn: 'any',
  input: z.object({}).strict(),
  output: z.object({ items: z.array(GatewaySchema) }),
  http: { method: 'GET', path: '/api/harness/gateways' },
  handler: (_input, ctx) => ({ items: gatewayStores(ctx.services).gateways.list() }),
});

export const getGateway = defineOperation({
  name: 'get_gateway',
  group: 'gateways',
  description: 'One gateway (its token is never shown).',
  readOnly: true,
  idempotent: true,
  runsIn: 'any',
  input: Ref,
  output: GatewaySchema,
  http: { method: 'GET', path: '/api/harness/gateways/:name' },
  handler: (input, ctx) => gatewayStores(ctx.services).gateways.get(input.name),
});

export const createGateway = defineOperation({
  name: 'create_gateway',
  group: 'gateways',
  description: 'Add an external gateway: openclaw (its Gateway WebSocket URL and token) or hermes (the hermes command).',
  readOnly: false,
  runsIn: 'any',
  input: z
    .object({
      name: Name,
      kind: z.enum(GATEWAY_KINDS),
      url: z.string().url().optional(),
      command: z.string().min(1).max(1000).optional(),
      token: z.string().min(1).max(4096).optional(),
      active: z.boolean().optional(),
    })
    .strict(),
  output: GatewaySchema,
  http: { method: 'POST', path: '/api/harness/gateways', status: 201 },
  handler: (input, ctx) => gatewayStores(ctx.services).gateways.add(input),
});

export const deleteGateway = defineOperation({
  name: 'delete_gateway',
  group: 'gateways',
  description: 'Remove a gateway that no channel uses.',
  readOnly: false,
  destructive: true,
  runsIn: 'any',
  input: Ref,
  output: GatewaySchema,
  http: { method: 'DELETE', path: '/api/harness/gateways/:name' },
  handler: (input, ctx) => gatewayStores(ctx.services).gateways.remove(input.name),
});

export const checkGatewayHealth = defineOperation({
  name: 'check_gateway_health',
  group: 'gateways',
  description: 'Connect to a gateway (openclaw: the handshake with its token; hermes: `hermes --version`) without sending anything. Redacted.',
  readOnly: true,
  runsIn: 'any',
  input: Ref,
  output: z.object({ gateway: z.string(), kind: z.enum(GATEWAY_KINDS), ok: z.boolean(), detail: z.string() }),
  http: { method: 'GET', path: '/api/harness/gateways/:name/health' },
  async handler(input, ctx) {
    const { gateways } = gatewayStores(ctx.services);
    const gateway = gateways.get(input.name);
    const client = createGatewayClient(gateway, gateways.tokenOf(gateway.id), { hostVersion: ctx.services.platform.hostVersion, timeoutMs: 10_000 });
    const health = await client.health(ctx.signal);
    return { gateway: gateway.name, kind: gateway.kind, ok: health.ok, detail: ctx.services.logger.redactor.text(health.detail) };
  },
});

export const listChannels = defineOperation({
  name: 'list_channels',
  group: 'gateways',
  description: 'The configured channels: gateway, platform, owner/home target, owner identity, trusted groups, targets, scope, active.',
  readOnly: true,
  idempotent: true,
  runsIn: 'any',
  input: z.object({}).strict(),
  output: z.object({ items: z.array(ChannelSchema) }),
  http: { method: 'GET', path: '/api/harness/channels' },
  handler: (_input, ctx) => ({ items: gatewayStores(ctx.services).channels.list() }),
});

export const createChannel = defineOperation({
  name: 'create_channel',
  group: 'gateways',
  description:
    'Add a channel: a platform reached through a gateway, its owner/home target (where unattended messages go), the owner identity, trusted groups, named targets, and a scope (global, a workspace or a project).',
  readOnly: false,
  runsIn: 'any',
  input: z
    .object({
      name: Name,
      gateway: z.string().min(1).max(100),
      platform: z.string().regex(/^[a-z0-9_-]{1,40}$/),
      homeTo: z.string().min(1).max(200),
      homeThreadId: z.string().min(1).max(100).optional(),
      ownerId: z.string().min(1).max(200).optional(),
      trustedGroups: z.array(z.string().min(1).max(200)).max(100).optional(),
      targets: z.array(ChannelTargetSchema).max(100).optional(),
      workspaceId: z.number().int().positive().optional(),
      projectId: z.number().int().positive().optional(),
      active: z.boolean().optional(),
    })
    .strict(),
  output: ChannelSchema,
  http: { method: 'POST', path: '/api/harness/channels', status: 201 },
  handler(input, ctx) {
    const { gateways, channels } = gatewayStores(ctx.services);
    const gateway = gateways.get(input.gateway);
    let workspaceId = input.workspaceId ?? null;
    if (input.projectId !== undefined) workspaceId = ctx.services.domain.projects.get(input.projectId).workspaceId;
    else if (workspaceId !== null) ctx.services.domain.workspaces.get(workspaceId);
    return channels.add({ ...input, gatewayId: gateway.id, workspaceId, projectId: input.projectId ?? null });
  },
});

export const updateChannel = defineOperation({
  name: 'update_channel',
  group: 'gateways',
  description: 'Activate or deactivate a channel.',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  input: z.object({ name: z.string().min(1).max(100), active: z.boolean() }).strict(),
  output: ChannelSchema,
  http: { method: 'PATCH', path: '/api/harness/channels/:name' },
  handler: (input, ctx) => gatewayStores(ctx.services).channels.setActive(input.name, input.active),
});

export const deleteChannel = defineOperation({
  name: 'delete_channel',
  group: 'gateways',
  description: 'Remove a channel (its messages stay in the notification center).',
  readOnly: false,
  destructive: true,
  runsIn: 'any',
  input: Ref,
  output: ChannelSchema,
  http: { method: 'DELETE', path: '/api/harness/channels/:name' },
  handler: (input, ctx) => gatewayStores(ctx.services).channels.remove(input.name),
});

export const GATEWAY_OPERATIONS = [listGateways, getGateway, createGateway, deleteGateway, checkGatewayHealth, listChannels, createChannel, updateChannel, deleteChannel];
