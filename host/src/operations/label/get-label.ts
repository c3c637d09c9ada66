import { z } from 'zod';
import { LabelSchema } from '../../features/domain/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';

export const getLabel = defineOperation({
  name: 'get_label',
  group: 'label',
  description: 'Show one label, by id.',
  readOnly: true,
  runsIn: 'any',
  readScope: { after: (output, scope) => (scope.project(output.projectId), output) },
  reach: { names: { id: 'label' } },
  input: z.object({ id: IdSchema }).strict(),
  output: LabelSchema,
  http: { method: 'GET', path: '/api/labels/:id' },
  cli: {
    command: 'label show',
    positionals: ['id'],
    usage: '<label id>',
    examples: ['svc label show 3'],
    text: (label, print) => print.line(`id       ${label.id}\nname     ${label.name}\nproject  ${label.projectId}\ncolor    ${label.color ?? '(none)'}`),
  },
  handler: (input, ctx) => ctx.services.domain.labels.get(input.id),
});
