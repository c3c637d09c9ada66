import { createHash, randomBytes } from 'node:crypto';
import { SvcError } from '@svc-org/ai-sdk';
import type { Db } from '@svc-org/host/platform/db';
import type { McpProfile } from '@svc-org/host/operation-framework';
import { McpTokenRowSchema, presentMcpToken, type McpTokenRecord, type McpTokenRow } from './mcp-token-record.js';

/** What a valid token lets its client be: the profile it sees and, for a task token, the task it acts as. */
export interface McpTokenGrant {
  tokenId: number;
  name: string;
  profile: McpProfile;
  taskId?: number;
}

export interface NewMcpToken {
  name: string;
  profile: McpProfile;
  taskId?: number;
  /** Lifetime in milliseconds; none: valid until revoked. */
  lifetimeMs?: number;
}

const PREFIX = 'svcmcp_';

/** The SHA-256 a token is found by; the token itself is never stored. */
export function hashMcpToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** How a reference to a token is read: as an id, as a name, or (unset) whichever it matches. */
export type McpTokenRef = 'id' | 'name';

/** `harness_mcp_tokens`: bearer tokens of Streamable HTTP clients, stored as hashes. */
export class McpTokenStore {
  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {}

  /** Makes a token and answers it once, with its record; only its hash is kept. */
  create(input: NewMcpToken): { token: string; record: McpTokenRecord } {
    if (input.taskId !== undefined && !this.db.prepare('SELECT 1 FROM tasks WHERE id = ?').get(input.taskId)) {
      throw new SvcError({ code: 'task_not_found', message: `task ${input.taskId} not found`, details: { taskId: input.taskId } });
    }
    const token = PREFIX + randomBytes(32).toString('base64url');
    const at = this.now();
    const expiresAt = input.lifetimeMs === undefined ? null : new Date(at.getTime() + input.lifetimeMs).toISOString();
    try {
      const result = this.db
        .prepare('INSERT INTO harness_mcp_tokens (name, token_hash, profile, task_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(input.name, hashMcpToken(token), input.profile, input.taskId ?? null, at.toISOString(), expiresAt);
      return { token, record: this.get(Number(result.lastInsertRowid), 'id') };
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new SvcError({ code: 'mcp_token_exists', message: `an MCP token named "${input.name}" exists; revoke it or choose another name`, details: { name: input.name } });
      }
      throw error;
    }
  }

  list(): McpTokenRecord[] {
    const now = this.now();
    return this.db.prepare('SELECT * FROM harness_mcp_tokens ORDER BY id').all().map((row) => presentMcpToken(McpTokenRowSchema.parse(row), now));
  }

  get(nameOrId: string | number, by?: McpTokenRef): McpTokenRecord {
    return presentMcpToken(this.row(nameOrId, by), this.now());
  }

  /** Revoked at once for every session; revoking twice keeps the first time. */
  revoke(nameOrId: string | number, by?: McpTokenRef): McpTokenRecord {
    const row = this.row(nameOrId, by);
    this.db.prepare('UPDATE harness_mcp_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(this.now().toISOString(), row.id);
    return this.get(row.id, 'id');
  }

  /**
   * What a presented token grants, or a 401 that says why not: unknown, revoked or expired. Called
   * on every request, so a revoke or an expiry ends an open session at its next message.
   */
  authenticate(token: string): McpTokenGrant {
    const found = this.db.prepare('SELECT * FROM harness_mcp_tokens WHERE token_hash = ?').get(hashMcpToken(token));
    if (!found) throw new SvcError({ code: 'unauthorized', message: 'this is not an MCP token of this service: make one with `svc mcp token create <name> --profile <profile>`' });
    const row = McpTokenRowSchema.parse(found);
    if (row.revoked_at) {
      throw new SvcError({ code: 'mcp_token_revoked', message: `MCP token "${row.name}" was revoked at ${row.revoked_at}`, details: { name: row.name, revokedAt: row.revoked_at } });
    }
    if (row.expires_at && Date.parse(row.expires_at) <= this.now().getTime()) {
      throw new SvcError({ code: 'mcp_token_expired', message: `MCP token "${row.name}" expired at ${row.expires_at}`, details: { name: row.name, expiresAt: row.expires_at } });
    }
    return { tokenId: row.id, name: row.name, profile: row.profile, ...(row.task_id !== null ? { taskId: row.task_id } : {}) };
  }

  /** Noted once per session, not per call: a read stays a read. */
  markUsed(tokenId: number): void {
    this.db.prepare('UPDATE harness_mcp_tokens SET last_used_at = ? WHERE id = ?').run(this.now().toISOString(), tokenId);
  }

  /**
   * The token a reference names. Digits may be an id or (for a token made before names had to hold
   * a letter) a name: when they are both, of two different tokens, the caller must say which.
   */
  private row(nameOrId: string | number, by?: McpTokenRef): McpTokenRow {
    const digits = typeof nameOrId === 'number' || /^[1-9]\d*$/.test(nameOrId);
    const byId = by !== 'name' && digits ? this.db.prepare('SELECT * FROM harness_mcp_tokens WHERE id = ?').get(Number(nameOrId)) : undefined;
    const byName = by !== 'id' ? this.db.prepare('SELECT * FROM harness_mcp_tokens WHERE name = ?').get(String(nameOrId)) : undefined;
    if (byId && byName && (byId as { id: number }).id !== (byName as { id: number }).id) {
      throw new SvcError({
        code: 'mcp_token_ambiguous',
        message: `"${String(nameOrId)}" is the id of one MCP token and the name of another`,
        details: { token: String(nameOrId), fix: `say which: svc mcp token revoke --id ${String(nameOrId)}, or --name ${String(nameOrId)}` },
      });
    }
    const found = byId ?? byName;
    if (!found) {
      const what = by === 'id' ? `with id ${String(nameOrId)}` : by === 'name' || !digits ? `named "${String(nameOrId)}"` : `with id or name "${String(nameOrId)}"`;
      throw new SvcError({ code: 'mcp_token_not_found', message: `no MCP token ${what}`, details: { token: nameOrId } });
    }
    return McpTokenRowSchema.parse(found);
  }
}
