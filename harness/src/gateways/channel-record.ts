import { z } from 'zod';

/** A named place a channel can send to besides its home target (a group, a person). */
export const ChannelTargetSchema = z
  .object({
    name: z.string().min(1).max(100),
    to: z.string().min(1).max(200),
    threadId: z.string().min(1).max(100).optional(),
  })
  .strict();
export type ChannelTarget = z.infer<typeof ChannelTargetSchema>;

export const ChannelSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  gatewayId: z.number().int(),
  gateway: z.string(),
  /** The platform the gateway reaches here (`telegram`, `discord`, …). */
  platform: z.string(),
  /** The owner/home target: where unattended messages go. */
  home: z.object({ to: z.string(), threadId: z.string().nullable() }),
  /** The owner's identity on this platform (sender policy OWNER). */
  ownerId: z.string().nullable(),
  trustedGroups: z.array(z.string()),
  targets: z.array(ChannelTargetSchema),
  scope: z.object({ workspaceId: z.number().int().nullable(), projectId: z.number().int().nullable() }),
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ChannelRecord = z.infer<typeof ChannelSchema>;

export const ChannelRowSchema = z
  .object({
    id: z.number(),
    name: z.string(),
    gateway_id: z.number(),
    gateway_name: z.string(),
    platform: z.string(),
    home_to: z.string(),
    home_thread: z.string().nullable(),
    owner_id: z.string().nullable(),
    trusted_groups: z.string(),
    targets: z.string(),
    workspace_id: z.number().nullable(),
    project_id: z.number().nullable(),
    active: z.number(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .transform(
    (row): ChannelRecord => ({
      id: row.id,
      name: row.name,
      gatewayId: row.gateway_id,
      gateway: row.gateway_name,
      platform: row.platform,
      home: { to: row.home_to, threadId: row.home_thread },
      ownerId: row.owner_id,
      trustedGroups: z.array(z.string()).parse(JSON.parse(row.trusted_groups)),
      targets: z.array(ChannelTargetSchema).parse(JSON.parse(row.targets)),
      scope: { workspaceId: row.workspace_id, projectId: row.project_id },
      active: row.active === 1,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    }),
  );
