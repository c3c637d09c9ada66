import { builtOnFirstUse, labelCreateSchema, LabelSchema } from '../../features/domain/index.js';
import { defineOperation, RefSchema } from '../../operation-framework/index.js';

// Built at its first use: a process that loads this declaration without taking its input builds none of it.
const createLabelInput = builtOnFirstUse(() => labelCreateSchema().extend({ projectId: RefSchema }));

export const createLabel = defineOperation({
  name: 'create_label',
  group: 'label',
  description: 'Create a label in a project (unique name there, optional #rrggbb colour).',
  readOnly: false,
  runsIn: 'any',
  reach: { names: { projectId: 'project' } },
  get input() {
    return createLabelInput();
  },
  output: LabelSchema,
  http: { method: 'POST', path: '/api/projects/:projectId/labels', status: 201 },
  handler: (input, ctx) => {
    const { domain } = ctx.services;
    return domain.labels.create({ ...input, projectId: domain.projects.resolve(input.projectId).id });
  },
});
