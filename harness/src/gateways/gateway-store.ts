import { SvcError } from '@svc-org/ai-sdk';
import type { Db } from '@svc-org/host/platform/db';
import type { Redactor } from '@svc-org/host/platform/logging';
import { GatewayRowSchema, type GatewayKind, type GatewayRecord } from './gateway-record.js';
import { PreparedStatements } from './prepared-statements.js';

export interface NewGateway {
  name: string;
  kind: GatewayKind;
  url?: string | null;
  command?: string | null;
  token?: string | null;
  active?: boolean;
}

/**
 * `harness_gateways`. The token goes in here and comes out only through `tokenOf` (for the client
 * that sends); every token read is registered with the redactor first, so no log or answer shows it.
 */
export class GatewayStore {
  private readonly sql: PreparedStatements;
  constructor(private readonly db: Db, private readonly redactor?: Redactor, private readonly now: () => Date = () => new Date()) {
    this.sql = new PreparedStatements(db);
    for (const row of db.prepare('SELECT token FROM harness_gateways WHERE token IS NOT NULL').all() as { token: string }[]) {
      redactor?.addSecret(row.token);
    }
  }

  list(): GatewayRecord[] {
    return this.sql.get('SELECT * FROM harness_gateways ORDER BY id').all().map((row) => GatewayRowSchema.parse(row).record);
  }

  get(nameOrId: string | number): GatewayRecord {
    return this.row(nameOrId).record;
  }

  tokenOf(nameOrId: string | number): string | null {
    const token = this.row(nameOrId).token;
    this.redactor?.addSecret(token);
    return token;
  }

  add(input: NewGateway): GatewayRecord {
    this.redactor?.addSecret(input.token);
    if (input.kind === 'openclaw' && !input.url) {
      throw new SvcError({ code: 'invalid_request', message: 'an openclaw gateway needs its WebSocket URL (e.g. ws://127.0.0.1:18789)' });
    }
    if (input.url && !/^wss?:\/\//.test(input.url)) {
      throw new SvcError({ code: 'invalid_request', message: 'the gateway URL must start with ws:// or wss://' });
    }
    const at = this.now().toISOString();
    try {
      const result = this.sql
        .get('INSERT INTO harness_gateways (name, kind, url, command, token, active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(input.name, input.kind, input.url ?? null, input.command ?? null, input.token ?? null, input.active === false ? 0 : 1, at, at);
      return this.get(Number(result.lastInsertRowid));
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new SvcError({ code: 'gateway_exists', message: `a gateway named ${input.name} exists already`, details: { name: input.name } });
      }
      throw error;
    }
  }

  remove(nameOrId: string | number): GatewayRecord {
    const gateway = this.get(nameOrId);
    const used = this.sql.get('SELECT COUNT(*) AS n FROM harness_channels WHERE gateway_id = ?').get(gateway.id) as { n: number };
    if (used.n > 0) {
      throw new SvcError({
        code: 'gateway_in_use',
        message: `gateway ${gateway.name} still serves ${used.n} channel(s)`,
        details: { fix: 'remove its channels first (svc channel list / svc channel remove <name>)' },
      });
    }
    this.sql.get('DELETE FROM harness_gateways WHERE id = ?').run(gateway.id);
    return gateway;
  }

  private row(nameOrId: string | number) {
    const row =
      typeof nameOrId === 'number' || /^\d+$/.test(nameOrId)
        ? this.sql.get('SELECT * FROM harness_gateways WHERE id = ?').get(Number(nameOrId))
        : this.sql.get('SELECT * FROM harness_gateways WHERE name = ?').get(nameOrId);
    if (!row) throw new SvcError({ code: 'gateway_not_found', message: `no gateway ${nameOrId}`, details: { gateway: nameOrId } });
    return GatewayRowSchema.parse(row);
  }
}
