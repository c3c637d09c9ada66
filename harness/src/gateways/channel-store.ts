import { SvcError } from '@svc-org/ai-sdk';
import type { Db } from '../../../host/src/db/index.js';
import { ChannelRowSchema, type ChannelRecord, type ChannelTarget } from './channel-record.js';
import { ensureGatewaySchema } from './ensure-gateway-schema.js';

export interface NewChannel {
  name: string;
  gatewayId: number;
  platform: string;
  homeTo: string;
  homeThreadId?: string | null;
  ownerId?: string | null;
  trustedGroups?: string[];
  targets?: ChannelTarget[];
  workspaceId?: number | null;
  projectId?: number | null;
  active?: boolean;
}

const SELECT = 'SELECT c.*, g.name AS gateway_name FROM harness_channels c JOIN harness_gateways g ON g.id = c.gateway_id';

/** `harness_channels`: where messages of a scope go, and who the owner is there. */
export class ChannelStore {
  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {
    ensureGatewaySchema(db);
  }

  list(): ChannelRecord[] {
    return this.db.prepare(`${SELECT} ORDER BY c.id`).all().map((row) => ChannelRowSchema.parse(row));
  }

  /**
   * Active channels that serve a task of `projectId` in `workspaceId`, most specific first: the
   * project's own, then the workspace's, then the global ones.
   */
  activeFor(scope: { workspaceId: number | null; projectId: number | null }): ChannelRecord[] {
    const rows = this.db
      .prepare(
        `${SELECT} WHERE c.active = 1 AND g.active = 1
           AND (c.project_id IS NULL OR c.project_id = ?)
           AND (c.workspace_id IS NULL OR c.workspace_id = ?)
         ORDER BY (c.project_id IS NOT NULL) DESC, (c.workspace_id IS NOT NULL) DESC, c.id`,
      )
      .all(scope.projectId, scope.workspaceId);
    return rows.map((row) => ChannelRowSchema.parse(row));
  }

  get(nameOrId: string | number): ChannelRecord {
    const row =
      typeof nameOrId === 'number' || /^\d+$/.test(nameOrId)
        ? this.db.prepare(`${SELECT} WHERE c.id = ?`).get(Number(nameOrId))
        : this.db.prepare(`${SELECT} WHERE c.name = ?`).get(nameOrId);
    if (!row) throw new SvcError({ code: 'channel_not_found', message: `no channel ${nameOrId}`, details: { channel: nameOrId } });
    return ChannelRowSchema.parse(row);
  }

  add(input: NewChannel): ChannelRecord {
    const at = this.now().toISOString();
    try {
      const result = this.db
        .prepare(
          `INSERT INTO harness_channels (name, gateway_id, platform, home_to, home_thread, owner_id, trusted_groups, targets,
             workspace_id, project_id, active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          input.name,
          input.gatewayId,
          input.platform,
          input.homeTo,
          input.homeThreadId ?? null,
          input.ownerId ?? null,
          JSON.stringify(input.trustedGroups ?? []),
          JSON.stringify(input.targets ?? []),
          input.workspaceId ?? null,
          input.projectId ?? null,
          input.active === false ? 0 : 1,
          at,
          at,
        );
      return this.get(Number(result.lastInsertRowid));
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new SvcError({ code: 'channel_exists', message: `a channel named ${input.name} exists already`, details: { name: input.name } });
      }
      throw error;
    }
  }

  setActive(nameOrId: string | number, active: boolean): ChannelRecord {
    const channel = this.get(nameOrId);
    this.db.prepare('UPDATE harness_channels SET active = ?, updated_at = ? WHERE id = ?').run(active ? 1 : 0, this.now().toISOString(), channel.id);
    return this.get(channel.id);
  }

  remove(nameOrId: string | number): ChannelRecord {
    const channel = this.get(nameOrId);
    this.db.prepare('DELETE FROM harness_channels WHERE id = ?').run(channel.id);
    return channel;
  }
}
