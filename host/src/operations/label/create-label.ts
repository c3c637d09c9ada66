import { LabelCreateSchema, LabelSchema } from '../../features/domain/index.js';
import { defineOperation, RefSchema } from '../../operation-framework/index.js';

export const createLabel = defineOperation({
  name: 'create_label',
  group: 'label',
  description: 'Create a label in a project (unique name there, optional #rrggbb colour).',
  readOnly: false,
  runsIn: 'any',
  reach: { names: { projectId: 'project' } },
  input: LabelCreateSchema.extend({ projectId: RefSchema }),
  output: LabelSchema,
  http: { method: 'POST', path: '/api/projects/:projectId/labels', status: 201 },
  handler: (input, ctx) => {
    const { domain } = ctx.services;
    return domain.labels.create({ ...input, projectId: domain.projects.resolve(input.projectId).id });
  },
});
