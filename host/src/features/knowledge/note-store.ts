import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import type { Db } from '../../platform/db/index.js';

export const NoteSchema = z.object({
  id: z.number(),
  projectId: z.number(),
  taskId: z.number().nullable(),
  title: z.string(),
  body: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Note = z.infer<typeof NoteSchema>;

interface NoteRow {
  id: number;
  project_id: number;
  task_id: number | null;
  title: string;
  body: string;
  created_at: string;
  updated_at: string;
}
const toNote = (row: NoteRow): Note => ({
  id: row.id,
  projectId: row.project_id,
  taskId: row.task_id,
  title: row.title,
  body: row.body,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** `notes`: free text a person or an agent keeps on a project (optionally about one task). */
export class NoteStore {
  constructor(private readonly db: Db, private readonly now: () => Date = () => new Date()) {}

  list(projectId: number, limit = 100): Note[] {
    return (this.db.prepare('SELECT * FROM notes WHERE project_id = ? ORDER BY id DESC LIMIT ?').all(projectId, limit) as NoteRow[]).map(toNote);
  }

  get(id: number): Note {
    const row = this.db.prepare('SELECT * FROM notes WHERE id = ?').get(id) as NoteRow | undefined;
    if (!row) throw new SvcError({ code: 'note_not_found', message: `no note with id ${id}`, details: { id } });
    return toNote(row);
  }

  create(input: { projectId: number; taskId?: number | null; title: string; body: string }): Note {
    const at = this.now().toISOString();
    const row = this.db
      .prepare('INSERT INTO notes (project_id, task_id, title, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING *')
      .get(input.projectId, input.taskId ?? null, input.title, input.body, at, at) as NoteRow;
    return toNote(row);
  }

  update(id: number, patch: { title?: string; body?: string }): Note {
    const current = this.get(id);
    const row = this.db
      .prepare('UPDATE notes SET title = ?, body = ?, updated_at = ? WHERE id = ? RETURNING *')
      .get(patch.title ?? current.title, patch.body ?? current.body, this.now().toISOString(), id) as NoteRow;
    return toNote(row);
  }

  remove(id: number): Note {
    const note = this.get(id);
    this.db.prepare('DELETE FROM notes WHERE id = ?').run(id);
    return note;
  }
}
