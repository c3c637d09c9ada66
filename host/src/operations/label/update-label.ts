import { LabelSchema, LabelUpdateSchema } from '../../features/domain/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';

export const updateLabel = defineOperation({
  name: 'update_label',
  group: 'label',
  description: 'Rename a label or change its colour (tasks keep it).',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { id: 'label' } },
  input: LabelUpdateSchema.extend({ id: IdSchema }),
  output: LabelSchema,
  http: { method: 'PATCH', path: '/api/labels/:id' },
  handler: (input, ctx) => {
    const { id, ...patch } = input;
    return ctx.services.domain.labels.update(id, patch);
  },
});
