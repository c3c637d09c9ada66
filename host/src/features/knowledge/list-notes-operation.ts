import { z } from 'zod';
import { defineOperation, IdSchema, listOf } from '../../operation-framework/index.js';
import { NoteSchema } from './note-store.js';
import { ProjectKnowledge } from './project-knowledge.js';

export const listNotes = defineOperation({
  name: 'list_notes',
  group: 'notes',
  description: "A project's notes (decisions, findings, hand-over text), newest first; manage_notes writes them.",
  readOnly: true,
  runsIn: 'any',
  readScope: { before: (input, scope) => scope.project(input.projectId) },
  reach: { names: { projectId: 'project' } },
  input: z.object({ projectId: IdSchema, limit: z.number().int().min(1).max(500).default(100) }).strict(),
  output: listOf(NoteSchema),
  http: { method: 'GET', path: '/api/knowledge/notes' },
  cli: {
    command: 'note list',
    description: 'A project\'s notes (decisions, findings, hand-over text), newest first.',
    flags: { projectId: { resolve: 'project' } },
    examples: ['svc note list --project app'],
  },
  handler(input, ctx) {
    ctx.services.domain.projects.get(input.projectId);
    return { items: new ProjectKnowledge(ctx.services.db).notes.list(input.projectId, input.limit) };
  },
});
