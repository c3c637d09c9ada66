import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import type { Db } from '../../platform/db/index.js';
import { transaction } from '../../platform/db/index.js';
import type { Domain } from '../domain/index.js';

export const ProductGroupSchema = z.object({
  id: z.number(),
  workspaceId: z.number(),
  name: z.string(),
  description: z.string(),
  projectIds: z.array(z.number()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProductGroup = z.infer<typeof ProductGroupSchema>;

interface GroupRow {
  id: number;
  workspace_id: number;
  name: string;
  description: string;
  project_ids: string;
  created_at: string;
  updated_at: string;
}

const SELECT = `SELECT g.*, (SELECT json_group_array(project_id) FROM (SELECT project_id FROM product_group_projects WHERE group_id = g.id ORDER BY project_id)) AS project_ids FROM product_groups g`;

const toGroup = (row: GroupRow): ProductGroup => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  description: row.description,
  projectIds: JSON.parse(row.project_ids) as number[],
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** `product_groups`: projects of one workspace that make one product; a project is in at most one. */
export class ProductGroupStore {
  constructor(private readonly db: Db, private readonly domain: Domain, private readonly now: () => Date = () => new Date()) {}

  list(workspaceId?: number): ProductGroup[] {
    const rows = workspaceId === undefined ? this.db.prepare(`${SELECT} ORDER BY g.workspace_id, g.name`).all() : this.db.prepare(`${SELECT} WHERE g.workspace_id = ? ORDER BY g.name`).all(workspaceId);
    return (rows as GroupRow[]).map(toGroup);
  }

  get(id: number): ProductGroup {
    const row = this.db.prepare(`${SELECT} WHERE g.id = ?`).get(id) as GroupRow | undefined;
    if (!row) throw new SvcError({ code: 'product_group_not_found', message: `no product group with id ${id}`, details: { id } });
    return toGroup(row);
  }

  create(input: { workspaceId: number; name: string; description: string; projectIds: readonly number[] }): ProductGroup {
    this.domain.workspaces.get(input.workspaceId);
    this.assertNameFree(input.workspaceId, input.name);
    this.checkProjects(input.workspaceId, input.projectIds, undefined);
    const at = this.now().toISOString();
    return transaction(this.db, () => {
      const { id } = this.db
        .prepare('INSERT INTO product_groups (workspace_id, name, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING id')
        .get(input.workspaceId, input.name, input.description, at, at) as { id: number };
      this.writeProjects(id, input.projectIds);
      return this.get(id);
    });
  }

  update(id: number, patch: { name?: string; description?: string; projectIds?: readonly number[] }): ProductGroup {
    const current = this.get(id);
    if (patch.name !== undefined && patch.name !== current.name) this.assertNameFree(current.workspaceId, patch.name);
    if (patch.projectIds) this.checkProjects(current.workspaceId, patch.projectIds, id);
    return transaction(this.db, () => {
      this.db
        .prepare('UPDATE product_groups SET name = ?, description = ?, updated_at = ? WHERE id = ?')
        .run(patch.name ?? current.name, patch.description ?? current.description, this.now().toISOString(), id);
      if (patch.projectIds) {
        this.db.prepare('DELETE FROM product_group_projects WHERE group_id = ?').run(id);
        this.writeProjects(id, patch.projectIds);
      }
      return this.get(id);
    });
  }

  remove(id: number): ProductGroup {
    const group = this.get(id);
    this.db.prepare('DELETE FROM product_groups WHERE id = ?').run(id);
    return group;
  }

  private assertNameFree(workspaceId: number, name: string): void {
    if (this.db.prepare('SELECT 1 FROM product_groups WHERE workspace_id = ? AND name = ?').get(workspaceId, name)) {
      throw new SvcError({ code: 'product_group_exists', message: `workspace ${workspaceId} already has a product group named "${name}"`, details: { name } });
    }
  }

  /** Every project exists, is in the group's workspace, and is in no other group. */
  private checkProjects(workspaceId: number, projectIds: readonly number[], groupId: number | undefined): void {
    for (const projectId of projectIds) {
      const project = this.domain.projects.get(projectId);
      if (project.workspaceId !== workspaceId) {
        throw new SvcError({ code: 'project_in_other_workspace', message: `project ${projectId} is in workspace ${project.workspaceId}, not ${workspaceId}`, details: { projectId, workspaceId } });
      }
      const other = this.db.prepare('SELECT group_id FROM product_group_projects WHERE project_id = ?').get(projectId) as { group_id: number } | undefined;
      if (other && other.group_id !== groupId) {
        throw new SvcError({ code: 'project_in_other_group', message: `project ${projectId} is already in product group ${other.group_id}; remove it there first`, details: { projectId, groupId: other.group_id } });
      }
    }
  }

  private writeProjects(groupId: number, projectIds: readonly number[]): void {
    const insert = this.db.prepare('INSERT INTO product_group_projects (group_id, project_id) VALUES (?, ?)');
    for (const projectId of new Set(projectIds)) insert.run(groupId, projectId);
  }
}
