import { builtOnFirstUse, LabelSchema, labelUpdateSchema } from '../../features/domain/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';

// Built at its first use: a process that loads this declaration without taking its input builds none of it.
const updateLabelInput = builtOnFirstUse(() => labelUpdateSchema().extend({ id: IdSchema }));

export const updateLabel = defineOperation({
  name: 'update_label',
  group: 'label',
  description: 'Rename a label or change its colour (tasks keep it).',
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { id: 'label' } },
  get input() {
    return updateLabelInput();
  },
  output: LabelSchema,
  http: { method: 'PATCH', path: '/api/labels/:id' },
  cli: {
    command: 'label update',
    positionals: ['id'],
    usage: '<label id>',
    flags: {
      name: { value: '<name>', description: 'new name' },
      color: { value: '#rrggbb', description: 'new colour', clear: { flag: 'no-color', description: 'remove its colour', value: null } },
    },
    examples: ['svc label update 3 --name defect'],
    text: (label, print) => print.line(`label ${label.id} "${label.name}" updated`),
  },
  handler: (input, ctx) => {
    const { id, ...patch } = input;
    return ctx.services.domain.labels.update(id, patch);
  },
});
