import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import type { Db } from '../../platform/db/index.js';

export const FactSchema = z.object({ id: z.number(), projectId: z.number(), key: z.string(), value: z.string(), updatedAt: z.string() });
export type Fact = z.infer<typeof FactSchema>;

interface FactRow {
  id: number;
  project_id: number;
  key: string;
  value: string;
  updated_at: string;
}
const toFact = (row: FactRow): Fact => ({ id: row.id, projectId: row.project_id, key: row.key, value: row.value, updatedAt: row.updated_at });

/** `project_facts`: one value per key and project ("test command" → "pnpm test"). */
export class FactStore {
  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {}

  list(projectId: number): Fact[] {
    return (this.db.prepare('SELECT * FROM project_facts WHERE project_id = ? ORDER BY key').all(projectId) as FactRow[]).map(toFact);
  }

  /** Creates or replaces the value of `key`. */
  set(projectId: number, key: string, value: string): Fact {
    const at = this.now().toISOString();
    const row = this.db
      .prepare(
        `INSERT INTO project_facts (project_id, key, value, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (project_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at RETURNING *`,
      )
      .get(projectId, key, value, at, at) as FactRow;
    return toFact(row);
  }

  remove(projectId: number, key: string): Fact {
    const row = this.db.prepare('DELETE FROM project_facts WHERE project_id = ? AND key = ? RETURNING *').get(projectId, key) as FactRow | undefined;
    if (!row) throw new SvcError({ code: 'fact_not_found', message: `project ${projectId} has no fact "${key}"`, details: { projectId, key } });
    return toFact(row);
  }
}
