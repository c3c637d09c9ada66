import { SvcError } from '@svc-org/ai-sdk';
import { z } from 'zod';
import { defineOperation } from '../../operation-framework/index.js';
import { NOTE_RECORD } from './knowledge-records.js';
import { NoteSchema } from './note-store.js';
import { ProjectKnowledge } from './project-knowledge.js';
import { requireFields } from './require-fields.js';

export const manageNotes = defineOperation({
  name: 'manage_notes',
  group: 'notes',
  description:
    'Write project notes (decisions, findings, hand-over text), optionally about one task; list_notes and get_note read them, ask_project_knowledge and global_search find them. ' +
    'action create (projectId, title, body, taskId?) | update (noteId, title?, body?) | delete (noteId).',
  readOnly: false,
  destructive: true,
  runsIn: 'any',
  reach: { names: { projectId: 'project', noteId: NOTE_RECORD, taskId: 'task' } },
  input: z
    .object({
      action: z.enum(['create', 'update', 'delete']),
      projectId: z.number().int().positive().optional(),
      noteId: z.number().int().positive().optional(),
      taskId: z.number().int().positive().optional(),
      title: z.string().trim().min(1).max(500).optional(),
      body: z.string().max(100_000).optional(),
    })
    .strict(),
  output: z.object({ action: z.string(), note: NoteSchema }),
  http: { method: 'POST', path: '/api/knowledge/notes' },
  handler(input, ctx) {
    const notes = new ProjectKnowledge(ctx.services.db).notes;
    switch (input.action) {
      case 'create': {
        const { projectId, title } = requireFields(input, input.action, ['projectId', 'title']);
        ctx.services.domain.projects.get(projectId);
        if (input.taskId !== undefined && ctx.services.domain.tasks.get(input.taskId).projectId !== projectId) {
          throw new SvcError({ code: 'task_in_other_project', message: `task ${input.taskId} is not in project ${projectId}`, details: { taskId: input.taskId, projectId } });
        }
        return { action: input.action, note: notes.create({ projectId, taskId: input.taskId ?? null, title, body: input.body ?? '' }) };
      }
      case 'update': {
        const { noteId } = requireFields(input, input.action, ['noteId']);
        return { action: input.action, note: notes.update(noteId, { ...(input.title ? { title: input.title } : {}), ...(input.body !== undefined ? { body: input.body } : {}) }) };
      }
      case 'delete':
        return { action: input.action, note: notes.remove(requireFields(input, input.action, ['noteId']).noteId) };
    }
  },
});
