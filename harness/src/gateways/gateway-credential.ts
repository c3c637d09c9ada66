// A gateway plugin proves it is the plugin, not a model's tool call, with a credential a person
// issued for that gateway (`svc gateway credential <name>`) and put in the plugin's own settings.
// Only the hash is stored; issuing again replaces it.
import { createHash, randomBytes } from 'node:crypto';
import { SvcError } from '@svc-org/ai-sdk';
import { GATEWAY_CREDENTIAL_ENV } from '@svc-org/host/operation-framework';
import type { Db } from '@svc-org/host/platform/db';

export function issueGatewayCredentialFor(db: Db, gatewayId: number, now: Date = new Date()): string {
  const credential = `svcg_${randomBytes(32).toString('base64url')}`;
  db.prepare(
    `INSERT INTO harness_gateway_credentials (gateway_id, credential_hash, created_at) VALUES (?, ?, ?)
     ON CONFLICT (gateway_id) DO UPDATE SET credential_hash = excluded.credential_hash, created_at = excluded.created_at`,
  ).run(gatewayId, hashGatewayCredential(credential), now.toISOString());
  return credential;
}

/** The active gateway the credential was issued for; a coded refusal otherwise. */
export function verifyGatewayCredential(db: Db, credential: string): { gatewayId: number; gateway: string } {
  const row = db
    .prepare(
      `SELECT g.id, g.name FROM harness_gateway_credentials c JOIN harness_gateways g ON g.id = c.gateway_id
       WHERE c.credential_hash = ? AND g.active = 1`,
    )
    .get(hashGatewayCredential(credential)) as { id: number; name: string } | undefined;
  if (!row) {
    throw new SvcError({
      code: 'gateway_credential_invalid',
      message: `${GATEWAY_CREDENTIAL_ENV} is not the current credential of an active gateway`,
      details: { fix: 'issue one with `svc gateway credential <gateway>` and put it in the gateway plugin\'s env setting' },
    });
  }
  return { gatewayId: row.id, gateway: row.name };
}

function hashGatewayCredential(credential: string): string {
  return createHash('sha256').update(credential, 'utf8').digest('hex');
}
