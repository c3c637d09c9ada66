import { SvcError } from '@svc-org/ai-sdk';
import { transaction, type Db } from '../../platform/db/index.js';
import { labelCreateSchema, LabelRowSchema, labelUpdateSchema, type LabelCreate, type LabelRecord, type LabelUpdate } from './label-record.js';
import { parseInput } from '../../platform/errors/index.js';
import type { ProjectStore } from './project-store.js';

/** The `labels` table. Labels belong to a project; a task carries only its project's labels. */
export class LabelStore {
  constructor(
    private readonly db: Db,
    private readonly projects: ProjectStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  list(projectId: number): LabelRecord[] {
    this.projects.get(projectId);
    return this.db.prepare('SELECT * FROM labels WHERE project_id = ? ORDER BY name').all(projectId).map((row) => LabelRowSchema.parse(row));
  }

  get(id: number): LabelRecord {
    const row = this.db.prepare('SELECT * FROM labels WHERE id = ?').get(id);
    if (!row) throw new SvcError({ code: 'label_not_found', message: `no label with id ${id}`, details: { id } });
    return LabelRowSchema.parse(row);
  }

  /** Label ids for names in a project; every name must exist there. */
  idsFor(projectId: number, names: readonly string[]): number[] {
    return [...new Set(names)].map((name) => {
      const row = this.db.prepare('SELECT id FROM labels WHERE project_id = ? AND name = ?').get(projectId, name) as { id: number } | undefined;
      if (!row) {
        throw new SvcError({
          code: 'label_not_found',
          message: `project ${projectId} has no label named "${name}" (create it first)`,
          details: { projectId, name },
        });
      }
      return row.id;
    });
  }

  create(input: LabelCreate): LabelRecord {
    const value = parseInput(labelCreateSchema(), input, 'label');
    return transaction(this.db, () => {
      this.projects.get(value.projectId);
      this.assertNameFree(value.projectId, value.name);
      const result = this.db
        .prepare('INSERT INTO labels (project_id, name, color, created_at) VALUES (?, ?, ?, ?)')
        .run(value.projectId, value.name, value.color, this.now().toISOString());
      return this.get(Number(result.lastInsertRowid));
    });
  }

  update(id: number, patch: LabelUpdate): LabelRecord {
    const value = parseInput(labelUpdateSchema(), patch, 'label update');
    return transaction(this.db, () => {
      const current = this.get(id);
      if (value.name !== undefined && value.name !== current.name) this.assertNameFree(current.projectId, value.name);
      this.db
        .prepare('UPDATE labels SET name = ?, color = ? WHERE id = ?')
        .run(value.name ?? current.name, value.color === undefined ? current.color : value.color, id);
      return this.get(id);
    });
  }

  /** Removing a label takes it off every task that carried it. */
  remove(id: number): void {
    transaction(this.db, () => {
      this.get(id);
      this.db.prepare('DELETE FROM labels WHERE id = ?').run(id);
    });
  }

  private assertNameFree(projectId: number, name: string): void {
    if (this.db.prepare('SELECT 1 FROM labels WHERE project_id = ? AND name = ?').get(projectId, name)) {
      throw new SvcError({ code: 'label_exists', message: `project ${projectId} already has a label named "${name}"`, details: { projectId, name } });
    }
  }
}
