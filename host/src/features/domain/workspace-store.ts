import { SvcError } from '@svc-org/ai-sdk';
import { transaction, type Db } from '../../platform/db/index.js';
import { parseInput } from '../../platform/errors/index.js';
import {
  workspaceCreateSchema,
  WorkspaceRowSchema,
  workspaceUpdateSchema,
  type WorkspaceCreate,
  type WorkspaceRecord,
  type WorkspaceUpdate,
} from './workspace-record.js';

/** The `workspaces` table. A workspace groups projects; its name is unique. */
export class WorkspaceStore {
  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {}

  list(): WorkspaceRecord[] {
    return this.db.prepare('SELECT * FROM workspaces ORDER BY name').all().map((row) => WorkspaceRowSchema.parse(row));
  }

  get(id: number): WorkspaceRecord {
    const row = this.db.prepare('SELECT * FROM workspaces WHERE id = ?').get(id);
    if (!row) throw new SvcError({ code: 'workspace_not_found', message: `no workspace with id ${id}`, details: { id } });
    return WorkspaceRowSchema.parse(row);
  }

  /** An id (digits) or a name, as typed on the command line. */
  resolve(ref: string | number): WorkspaceRecord {
    if (typeof ref === 'number' || /^\d+$/.test(ref)) return this.get(Number(ref));
    const row = this.db.prepare('SELECT * FROM workspaces WHERE name = ?').get(ref);
    if (!row) throw new SvcError({ code: 'workspace_not_found', message: `no workspace named "${ref}"`, details: { name: ref } });
    return WorkspaceRowSchema.parse(row);
  }

  create(input: WorkspaceCreate): WorkspaceRecord {
    const value = parseInput(workspaceCreateSchema(), input, 'workspace');
    return transaction(this.db, () => {
      this.assertNameFree(value.name);
      const at = this.now().toISOString();
      const result = this.db
        .prepare('INSERT INTO workspaces (name, description, created_at, updated_at) VALUES (?, ?, ?, ?)')
        .run(value.name, value.description, at, at);
      return this.get(Number(result.lastInsertRowid));
    });
  }

  update(id: number, patch: WorkspaceUpdate): WorkspaceRecord {
    const value = parseInput(workspaceUpdateSchema(), patch, 'workspace update');
    return transaction(this.db, () => {
      const current = this.get(id);
      if (value.name !== undefined && value.name !== current.name) this.assertNameFree(value.name);
      this.db
        .prepare('UPDATE workspaces SET name = ?, description = ?, updated_at = ? WHERE id = ?')
        .run(value.name ?? current.name, value.description ?? current.description, this.now().toISOString(), id);
      return this.get(id);
    });
  }

  remove(id: number): void {
    transaction(this.db, () => {
      this.get(id);
      const projects = (this.db.prepare('SELECT COUNT(*) AS n FROM projects WHERE workspace_id = ?').get(id) as { n: number }).n;
      if (projects > 0) {
        throw new SvcError({
          code: 'workspace_not_empty',
          message: `workspace ${id} still has ${projects} project(s); remove them first`,
          details: { id, projects },
        });
      }
      this.db.prepare('DELETE FROM workspaces WHERE id = ?').run(id);
    });
  }

  private assertNameFree(name: string): void {
    if (this.db.prepare('SELECT 1 FROM workspaces WHERE name = ?').get(name)) {
      throw new SvcError({ code: 'workspace_exists', message: `a workspace named "${name}" already exists`, details: { name } });
    }
  }
}
