import { SvcError } from '@svc-org/ai-sdk';
import type { Db } from '@svc-org/host/platform/db';
import { z } from 'zod';
import { ChannelRowSchema, ChannelTargetSchema, type ChannelRecord, type ChannelTarget } from './channel-record.js';
import { PreparedStatements } from './prepared-statements.js';

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

export interface PushChannel {
  id: number;
  name: string;
  gatewayId: number;
  home: { to: string; threadId: string | null };
  target(name: string): ChannelTarget | undefined;
}

const ChannelRowTargets = z.array(ChannelTargetSchema);

const SELECT = 'SELECT c.*, g.name AS gateway_name FROM harness_channels c JOIN harness_gateways g ON g.id = c.gateway_id';

/** `harness_channels`: where messages of a scope go, and who the owner is there. */
export class ChannelStore {
  private readonly sql: PreparedStatements;
  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {
    this.sql = new PreparedStatements(db);
  }

  list(): ChannelRecord[] {
    return this.sql.get(`${SELECT} ORDER BY c.id`).all().map((row) => ChannelRowSchema.parse(row));
  }

  /**
   * Active channels that serve a task of `projectId` in `workspaceId`, most specific first: the
   * project's own, then the workspace's, then the global ones.
   */
  activeFor(scope: { workspaceId: number | null; projectId: number | null }): ChannelRecord[] {
    const rows = this.sql
      .get(
        `${SELECT} WHERE c.active = 1 AND g.active = 1
           AND (c.project_id IS NULL OR c.project_id = ?)
           AND (c.workspace_id IS NULL OR c.workspace_id = ?)
         ORDER BY (c.project_id IS NOT NULL) DESC, (c.workspace_id IS NOT NULL) DESC, c.id`,
      )
      .all(scope.projectId, scope.workspaceId);
    return rows.map((row) => ChannelRowSchema.parse(row));
  }

  /**
   * The channel a push goes through (named, or the most specific active one for the scope), read
   * without the full presenter: this sits on the path of every push_to_human.
   */
  pickForPush(scope: { workspaceId: number | null; projectId: number | null }, name?: string): PushChannel | undefined {
    const row = this.sql
      .get(
        `SELECT c.id, c.name, c.gateway_id, c.home_to, c.home_thread, c.targets FROM harness_channels c JOIN harness_gateways g ON g.id = c.gateway_id
         WHERE c.active = 1 AND g.active = 1 AND (c.project_id IS NULL OR c.project_id = ?) AND (c.workspace_id IS NULL OR c.workspace_id = ?)
           AND (? IS NULL OR c.name = ?)
         ORDER BY (c.project_id IS NOT NULL) DESC, (c.workspace_id IS NOT NULL) DESC, c.id LIMIT 1`,
      )
      .get(scope.projectId, scope.workspaceId, name ?? null, name ?? null) as
      | { id: number; name: string; gateway_id: number; home_to: string; home_thread: string | null; targets: string }
      | undefined;
    if (!row) return undefined;
    return {
      id: row.id,
      name: row.name,
      gatewayId: row.gateway_id,
      home: { to: row.home_to, threadId: row.home_thread },
      target: (targetName) => (row.targets === '[]' ? undefined : ChannelRowTargets.parse(JSON.parse(row.targets)).find((t) => t.name === targetName)),
    };
  }

  get(nameOrId: string | number): ChannelRecord {
    const row =
      typeof nameOrId === 'number' || /^\d+$/.test(nameOrId)
        ? this.sql.get(`${SELECT} WHERE c.id = ?`).get(Number(nameOrId))
        : this.sql.get(`${SELECT} WHERE c.name = ?`).get(nameOrId);
    if (!row) throw new SvcError({ code: 'channel_not_found', message: `no channel ${nameOrId}`, details: { channel: nameOrId } });
    return ChannelRowSchema.parse(row);
  }

  add(input: NewChannel): ChannelRecord {
    const at = this.now().toISOString();
    try {
      const result = this.sql
        .get(
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
    this.sql.get('UPDATE harness_channels SET active = ?, updated_at = ? WHERE id = ?').run(active ? 1 : 0, this.now().toISOString(), channel.id);
    return this.get(channel.id);
  }

  remove(nameOrId: string | number): ChannelRecord {
    const channel = this.get(nameOrId);
    this.sql.get('DELETE FROM harness_channels WHERE id = ?').run(channel.id);
    return channel;
  }
}
