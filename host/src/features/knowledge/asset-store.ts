import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import type { Db } from '../../platform/db/index.js';

export const ASSET_KINDS = ['link', 'file', 'text'] as const;
export const AssetSchema = z.object({
  id: z.number(),
  projectId: z.number(),
  name: z.string(),
  kind: z.enum(ASSET_KINDS),
  uri: z.string(),
  description: z.string(),
  updatedAt: z.string(),
});
export type Asset = z.infer<typeof AssetSchema>;

interface AssetRow {
  id: number;
  project_id: number;
  name: string;
  kind: (typeof ASSET_KINDS)[number];
  uri: string;
  description: string;
  updated_at: string;
}
const toAsset = (row: AssetRow): Asset => ({
  id: row.id,
  projectId: row.project_id,
  name: row.name,
  kind: row.kind,
  uri: row.uri,
  description: row.description,
  updatedAt: row.updated_at,
});

/** `assets`: links, files and snippets a project keeps at hand, each under a unique name. */
export class AssetStore {
  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {}

  list(projectId: number): Asset[] {
    return (this.db.prepare('SELECT * FROM assets WHERE project_id = ? ORDER BY name').all(projectId) as AssetRow[]).map(toAsset);
  }

  get(id: number): Asset {
    const row = this.db.prepare('SELECT * FROM assets WHERE id = ?').get(id) as AssetRow | undefined;
    if (!row) throw new SvcError({ code: 'asset_not_found', message: `no asset with id ${id}`, details: { id } });
    return toAsset(row);
  }

  add(input: { projectId: number; name: string; kind: Asset['kind']; uri: string; description: string }): Asset {
    if (this.db.prepare('SELECT 1 FROM assets WHERE project_id = ? AND name = ?').get(input.projectId, input.name)) {
      throw new SvcError({ code: 'asset_exists', message: `project ${input.projectId} already has an asset named "${input.name}"`, details: { name: input.name } });
    }
    const at = this.now().toISOString();
    const row = this.db
      .prepare('INSERT INTO assets (project_id, name, kind, uri, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *')
      .get(input.projectId, input.name, input.kind, input.uri, input.description, at, at) as AssetRow;
    return toAsset(row);
  }

  update(id: number, patch: { name?: string; kind?: Asset['kind']; uri?: string; description?: string }): Asset {
    const current = this.get(id);
    const name = patch.name ?? current.name;
    if (name !== current.name && this.db.prepare('SELECT 1 FROM assets WHERE project_id = ? AND name = ?').get(current.projectId, name)) {
      throw new SvcError({ code: 'asset_exists', message: `project ${current.projectId} already has an asset named "${name}"`, details: { name } });
    }
    const row = this.db
      .prepare('UPDATE assets SET name = ?, kind = ?, uri = ?, description = ?, updated_at = ? WHERE id = ? RETURNING *')
      .get(name, patch.kind ?? current.kind, patch.uri ?? current.uri, patch.description ?? current.description, this.now().toISOString(), id) as AssetRow;
    return toAsset(row);
  }

  remove(id: number): Asset {
    const asset = this.get(id);
    this.db.prepare('DELETE FROM assets WHERE id = ?').run(id);
    return asset;
  }
}
