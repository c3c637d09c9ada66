// The memory that makes rollbacks visible: the highest signed index version accepted per catalog URL
// (`catalog_index_versions`). It only grows: two processes accepting different versions at once leave
// the higher one.
import { z } from 'zod';
import type { Db } from '../../../platform/db/index.js';

const Row = z.object({ version: z.number().int(), key_id: z.string(), accepted_at: z.string() });

export interface AcceptedIndexVersion {
  version: number;
  keyId: string;
  acceptedAt: string;
}

/** The identity of a catalog: origin and path of its index URL (a query may hold a secret and is dropped). */
function catalogIndexIdentity(indexUrl: URL): string {
  return `${indexUrl.origin}${indexUrl.pathname}`;
}

export class CatalogIndexVersions {
  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {}

  highest(indexUrl: URL): AcceptedIndexVersion | undefined {
    const row = this.db.prepare('SELECT version, key_id, accepted_at FROM catalog_index_versions WHERE index_url = ?').get(catalogIndexIdentity(indexUrl));
    if (row === undefined) return undefined;
    const parsed = Row.parse(row);
    return { version: parsed.version, keyId: parsed.key_id, acceptedAt: parsed.accepted_at };
  }

  accept(indexUrl: URL, version: number, keyId: string): void {
    this.db
      .prepare(
        `INSERT INTO catalog_index_versions (index_url, version, key_id, accepted_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (index_url) DO UPDATE SET version = excluded.version, key_id = excluded.key_id, accepted_at = excluded.accepted_at
         WHERE excluded.version >= catalog_index_versions.version`,
      )
      .run(catalogIndexIdentity(indexUrl), version, keyId, this.now().toISOString());
  }
}
