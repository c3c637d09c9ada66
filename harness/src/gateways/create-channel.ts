import { z } from 'zod';
import { defineOperation } from '@svc-org/host/operation-framework';
import { ConfigurationNameSchema } from './configuration-name.js';
import { ChannelSchema, ChannelTargetSchema } from './channel-record.js';
import { gatewayStores } from './gateway-stores.js';

export const createChannel = defineOperation({
  name: 'create_channel',
  group: 'gateway_settings',
  mcp: false,
  description:
    'Add a channel: a platform reached through a gateway, its owner/home target (where unattended messages go), the owner identity, trusted groups, named targets, and a scope (global, a workspace or a project).',
  readOnly: false,
  runsIn: 'any',
  input: z
    .object({
      name: ConfigurationNameSchema,
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
