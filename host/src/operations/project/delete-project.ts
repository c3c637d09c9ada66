import { z } from 'zod';
import { ProjectSchema } from '../../features/domain/index.js';
import { defineOperation, RefSchema } from '../../operation-framework/index.js';

export const deleteProject = defineOperation({
  name: 'delete_project',
  group: 'project',
  description: 'Remove a project without tasks (its labels go with it); answers the removed record.',
  readOnly: false,
  destructive: true,
  runsIn: 'any',
  reach: { taskCaller: 'refused' },
  input: z.object({ id: RefSchema }).strict(),
  output: ProjectSchema,
  http: { method: 'DELETE', path: '/api/projects/:id', status: 204 },
  cli: { command: 'project remove', positionals: ['id'], usage: '<id|name>', examples: ['svc project remove app'], text: (record, print) => print.line(`project ${record.id} "${record.name}" removed`) },
  handler: (input, ctx) => {
    const { projects } = ctx.services.domain;
    const record = projects.resolve(input.id);
    projects.remove(record.id);
    return record;
  },
});
