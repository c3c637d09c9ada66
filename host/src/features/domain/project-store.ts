import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { SvcError } from '@svc-org/ai-sdk';
import { transaction, type Db } from '../../platform/db/index.js';
import { parseInput } from '../../platform/errors/index.js';
import {
  projectCreateSchema,
  ProjectRowSchema,
  projectUpdateSchema,
  type ProjectCreate,
  type ProjectRecord,
  type ProjectUpdate,
} from './project-record.js';
import type { WorkspaceStore } from './workspace-store.js';

/** The `projects` table. A project is a repository folder inside a workspace; terminals run there. */
export class ProjectStore {
  constructor(
    private readonly db: Db,
    private readonly workspaces: WorkspaceStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  list(filter: { workspaceId?: number } = {}): ProjectRecord[] {
    const rows =
      filter.workspaceId === undefined
        ? this.db.prepare('SELECT * FROM projects ORDER BY workspace_id, name').all()
        : this.db.prepare('SELECT * FROM projects WHERE workspace_id = ? ORDER BY name').all(filter.workspaceId);
    return rows.map((row) => ProjectRowSchema.parse(row));
  }

  get(id: number): ProjectRecord {
    const row = this.db.prepare('SELECT * FROM projects WHERE id = ?').get(id);
    if (!row) throw new SvcError({ code: 'project_not_found', message: `no project with id ${id}`, details: { id } });
    return ProjectRowSchema.parse(row);
  }

  /** The project's name alone (what a task's answer shows of it). */
  nameOf(id: number): string {
    const row = this.db.prepare('SELECT name FROM projects WHERE id = ?').get(id) as { name: string } | undefined;
    if (!row) throw new SvcError({ code: 'project_not_found', message: `no project with id ${id}`, details: { id } });
    return row.name;
  }

  /** An id, or a name that is unique (within `workspaceId` when given). */
  resolve(ref: string | number, workspaceId?: number): ProjectRecord {
    if (typeof ref === 'number' || /^\d+$/.test(ref)) return this.get(Number(ref));
    const rows = (
      workspaceId === undefined
        ? this.db.prepare('SELECT * FROM projects WHERE name = ?').all(ref)
        : this.db.prepare('SELECT * FROM projects WHERE name = ? AND workspace_id = ?').all(ref, workspaceId)
    ).map((row) => ProjectRowSchema.parse(row));
    if (rows.length === 0) throw new SvcError({ code: 'project_not_found', message: `no project named "${ref}"`, details: { name: ref } });
    if (rows.length > 1) {
      throw new SvcError({
        code: 'project_ambiguous',
        message: `${rows.length} projects are named "${ref}" (ids ${rows.map((r) => r.id).join(', ')}); use an id or name the workspace`,
        details: { name: ref, ids: rows.map((r) => r.id) },
      });
    }
    return rows[0]!;
  }

  create(input: ProjectCreate): ProjectRecord {
    const value = parseInput(projectCreateSchema(), input, 'project');
    const repoPath = checkRepository(value.repoPath);
    return transaction(this.db, () => {
      this.workspaces.get(value.workspaceId);
      this.assertNameFree(value.workspaceId, value.name);
      const at = this.now().toISOString();
      const result = this.db
        .prepare('INSERT INTO projects (workspace_id, name, repo_path, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(value.workspaceId, value.name, repoPath, value.description, at, at);
      return this.get(Number(result.lastInsertRowid));
    });
  }

  update(id: number, patch: ProjectUpdate): ProjectRecord {
    const value = parseInput(projectUpdateSchema(), patch, 'project update');
    const checkedRepo = value.repoPath === undefined ? undefined : checkRepository(value.repoPath);
    return transaction(this.db, () => {
      const current = this.get(id);
      if (value.name !== undefined && value.name !== current.name) this.assertNameFree(current.workspaceId, value.name);
      this.db
        .prepare('UPDATE projects SET name = ?, repo_path = ?, description = ?, updated_at = ? WHERE id = ?')
        .run(value.name ?? current.name, checkedRepo ?? current.repoPath, value.description ?? current.description, this.now().toISOString(), id);
      return this.get(id);
    });
  }

  remove(id: number): void {
    transaction(this.db, () => {
      this.get(id);
      const tasks = (this.db.prepare('SELECT COUNT(*) AS n FROM tasks WHERE project_id = ?').get(id) as { n: number }).n;
      if (tasks > 0) {
        throw new SvcError({ code: 'project_not_empty', message: `project ${id} still has ${tasks} task(s); remove them first`, details: { id, tasks } });
      }
      this.db.prepare('DELETE FROM projects WHERE id = ?').run(id);
    });
  }

  private assertNameFree(workspaceId: number, name: string): void {
    if (this.db.prepare('SELECT 1 FROM projects WHERE workspace_id = ? AND name = ?').get(workspaceId, name)) {
      throw new SvcError({
        code: 'project_exists',
        message: `workspace ${workspaceId} already has a project named "${name}"`,
        details: { workspaceId, name },
      });
    }
  }
}

/** The repository folder must be given absolute and exist: terminals start in it. */
function checkRepository(path: string): string {
  if (!isAbsolute(path)) {
    throw new SvcError({ code: 'invalid_request', message: 'the repository path must be absolute', details: { field: 'repoPath' } });
  }
  const folder = resolve(path);
  let isDir = false;
  try {
    isDir = statSync(folder).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new SvcError({ code: 'repository_not_found', message: `${folder} is not a folder`, details: { repoPath: folder } });
  return folder;
}
