import { SvcError } from '@svc-org/ai-sdk';
import { transaction, type Db, type SqlValue } from '../../platform/db/index.js';
import type { EventStore } from '../../platform/events/index.js';
import type { LabelStore } from './label-store.js';
import { parseInput } from '../../platform/errors/index.js';
import type { ProjectStore } from './project-store.js';
import {
  TASK_SELECT,
  taskCreateSchema,
  TaskRowSchema,
  taskUpdateSchema,
  type TaskCreate,
  type TaskListFilter,
  type TaskRecord,
  type TaskUpdate,
} from './task-record.js';
import { assertTaskTransition, type TaskStatus } from './task-status.js';

/** Where the authoritative `unattended` signal lives (a file a hook reads); the column is its shadow. */
export interface UnattendedSignals {
  setUnattended(taskId: number, unattended: boolean): void;
}

// Statuses a task may not take while its terminal is live: the board would lie about the work.
const NEEDS_NO_LIVE_EXECUTION: readonly TaskStatus[] = ['TODO', 'DONE', 'CANCELLED'];

/** The `tasks` table with labels and the parent tree (same project, no cycles). */
export class TaskStore {
  constructor(
    private readonly db: Db,
    private readonly projects: ProjectStore,
    private readonly labels: LabelStore,
    private readonly now: () => Date = () => new Date(),
    private readonly signals?: UnattendedSignals,
    private readonly events?: EventStore,
  ) {}

  list(filter: TaskListFilter = {}): TaskRecord[] {
    const where: string[] = [];
    const params: SqlValue[] = [];
    if (filter.projectId !== undefined) {
      this.projects.get(filter.projectId);
      where.push('t.project_id = ?');
      params.push(filter.projectId);
    }
    if (filter.status !== undefined) {
      where.push('t.status = ?');
      params.push(filter.status);
    }
    if (filter.parentTaskId !== undefined) {
      where.push('t.parent_task_id = ?');
      params.push(filter.parentTaskId);
    }
    const sql = `${TASK_SELECT}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY t.id`;
    return this.db.prepare(sql).all(...params).map((row) => TaskRowSchema.parse(row));
  }

  find(id: number): TaskRecord | undefined {
    const row = this.db.prepare(`${TASK_SELECT} WHERE t.id = ?`).get(id);
    return row ? TaskRowSchema.parse(row) : undefined;
  }

  get(id: number): TaskRecord {
    const task = this.find(id);
    if (!task) throw new SvcError({ code: 'task_not_found', message: `no task with id ${id}`, details: { id } });
    return task;
  }

  create(input: TaskCreate): TaskRecord {
    const value = parseInput(taskCreateSchema(), input, 'task');
    const at = this.now().toISOString();
    const created = transaction(this.db, () => {
      this.projects.get(value.projectId);
      if (value.parentTaskId !== null) this.checkParent(undefined, value.projectId, value.parentTaskId);
      const labelIds = this.labels.idsFor(value.projectId, value.labels);
      const result = this.db
        .prepare(
          `INSERT INTO tasks (project_id, parent_task_id, title, description, status, unattended, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(value.projectId, value.parentTaskId, value.title, value.description, value.status, value.unattended ? 1 : 0, at, at);
      const id = Number(result.lastInsertRowid);
      this.writeLabels(id, labelIds);
      return this.get(id);
    });
    if (created.unattended) this.signals?.setUnattended(created.id, true);
    return created;
  }

  update(id: number, patch: TaskUpdate): TaskRecord {
    const value = parseInput(taskUpdateSchema(), patch, 'task update');
    let previous: TaskRecord | undefined;
    const updated = transaction(this.db, () => {
      const current = this.get(id);
      previous = current;
      if (value.status !== undefined && value.status !== current.status) {
        assertTaskTransition(id, current.status, value.status);
        if (NEEDS_NO_LIVE_EXECUTION.includes(value.status)) this.assertNoLiveExecution(id, `move it to ${value.status}`);
      }
      if (value.parentTaskId !== undefined && value.parentTaskId !== null && value.parentTaskId !== current.parentTaskId) {
        this.checkParent(id, current.projectId, value.parentTaskId);
      }
      const labelIds = value.labels === undefined ? undefined : this.labels.idsFor(current.projectId, value.labels);
      this.db
        .prepare('UPDATE tasks SET title = ?, description = ?, status = ?, parent_task_id = ?, unattended = ?, updated_at = ? WHERE id = ?')
        .run(
          value.title ?? current.title,
          value.description ?? current.description,
          value.status ?? current.status,
          value.parentTaskId === undefined ? current.parentTaskId : value.parentTaskId,
          (value.unattended ?? current.unattended) ? 1 : 0,
          this.now().toISOString(),
          id,
        );
      if (labelIds) {
        this.db.prepare('DELETE FROM task_labels WHERE task_id = ?').run(id);
        this.writeLabels(id, labelIds);
      }
      const after = this.get(id);
      if (after.status !== current.status) this.statusChanged(after, current.status);
      return after;
    });
    // An explicit switch writes the signal file as asked; closing an unattended task removes it and
    // reopening restores it from the column.
    if (value.unattended !== undefined) this.signals?.setUnattended(id, value.unattended);
    else if (updated.status !== previous!.status && updated.unattended) {
      this.signals?.setUnattended(id, updated.status !== 'DONE' && updated.status !== 'CANCELLED');
    }
    return updated;
  }

  /** Moves a task by the service itself (e.g. TODO → IN_PROGRESS when a terminal starts); same rules. */
  moveTo(id: number, status: TaskStatus): TaskRecord {
    return transaction(this.db, () => {
      const current = this.get(id);
      if (current.status === status) return current;
      assertTaskTransition(id, current.status, status);
      this.db.prepare('UPDATE tasks SET status = ?, updated_at = ? WHERE id = ?').run(status, this.now().toISOString(), id);
      const after = this.get(id);
      this.statusChanged(after, current.status);
      return after;
    });
  }

  remove(id: number): void {
    transaction(this.db, () => {
      this.get(id);
      const children = (this.db.prepare('SELECT COUNT(*) AS n FROM tasks WHERE parent_task_id = ?').get(id) as { n: number }).n;
      if (children > 0) {
        throw new SvcError({ code: 'task_has_children', message: `task ${id} has ${children} child task(s); remove or detach them first`, details: { id, children } });
      }
      this.assertNoLiveExecution(id, 'remove it');
      this.db.prepare('DELETE FROM tasks WHERE id = ?').run(id);
    });
    this.signals?.setUnattended(id, false);
  }

  // In the caller's transaction: the event exists exactly when the change does.
  private statusChanged(task: TaskRecord, from: TaskStatus): void {
    this.events?.append({
      type: 'task_status_changed',
      dedupKey: `task_status_changed:${task.id}:${from}:${task.status}:${task.updatedAt}`,
      payload: { taskId: task.id, projectId: task.projectId, parentTaskId: task.parentTaskId, from, to: task.status },
    });
  }

  private assertNoLiveExecution(id: number, action: string): void {
    const live = this.db.prepare("SELECT id, status FROM executions WHERE task_id = ? AND status IN ('RUNNING', 'PAUSED')").get(id) as
      | { id: number; status: string }
      | undefined;
    if (live) {
      throw new SvcError({
        code: 'task_has_live_execution',
        message: `task ${id} has a ${live.status} execution (${live.id}); stop it before you ${action}`,
        details: { id, executionId: live.id },
      });
    }
  }

  /** Same project, existing, and not the task itself or one of its descendants. */
  private checkParent(taskId: number | undefined, projectId: number, parentId: number): void {
    const parent = this.find(parentId);
    if (!parent) throw new SvcError({ code: 'parent_not_found', message: `no parent task with id ${parentId}`, details: { parentTaskId: parentId } });
    if (parent.projectId !== projectId) {
      throw new SvcError({
        code: 'parent_in_other_project',
        message: `task ${parentId} belongs to project ${parent.projectId}, not ${projectId}; a parent must be in the same project`,
        details: { parentTaskId: parentId, parentProjectId: parent.projectId, projectId },
      });
    }
    if (taskId === undefined) return;
    // Walk up from the proposed parent: meeting the task itself means the move closes a loop.
    const seen = new Set<number>();
    for (let at: number | null = parentId; at !== null; ) {
      if (at === taskId) {
        throw new SvcError({
          code: 'task_cycle',
          message: `task ${parentId} cannot be the parent of task ${taskId}: it is the task itself or one of its descendants`,
          details: { taskId, parentTaskId: parentId },
        });
      }
      if (seen.has(at)) break;
      seen.add(at);
      at = (this.db.prepare('SELECT parent_task_id AS p FROM tasks WHERE id = ?').get(at) as { p: number | null } | undefined)?.p ?? null;
    }
  }

  private writeLabels(taskId: number, labelIds: number[]): void {
    const insert = this.db.prepare('INSERT INTO task_labels (task_id, label_id) VALUES (?, ?)');
    for (const labelId of labelIds) insert.run(taskId, labelId);
  }
}
