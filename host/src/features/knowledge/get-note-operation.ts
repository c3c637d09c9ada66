import { z } from 'zod';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';
import { NOTE_RECORD } from './knowledge-records.js';
import { NoteSchema } from './note-store.js';
import { ProjectKnowledge } from './project-knowledge.js';

export const getNote = defineOperation({
  name: 'get_note',
  group: 'notes',
  description: 'One project note by its id.',
  readOnly: true,
  runsIn: 'any',
  readScope: { after: (output, scope) => (scope.project(output.projectId), output) },
  reach: { names: { noteId: NOTE_RECORD } },
  input: z.object({ noteId: IdSchema }).strict(),
  output: NoteSchema,
  http: { method: 'GET', path: '/api/knowledge/notes/:noteId' },
  cli: { command: 'note show', positionals: ['noteId'], examples: ['svc note show 4'] },
  handler: (input, ctx) => new ProjectKnowledge(ctx.services.db).notes.get(input.noteId),
});
