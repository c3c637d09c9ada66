import { z } from 'zod';
import { LabelSchema } from '../../features/domain/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';

export const deleteLabel = defineOperation({
  name: 'delete_label',
  group: 'label',
  description: 'Remove a label (and take it off every task); answers the removed record.',
  readOnly: false,
  destructive: true,
  runsIn: 'any',
  reach: { names: { id: 'label' } },
  input: z.object({ id: IdSchema }).strict(),
  output: LabelSchema,
  http: { method: 'DELETE', path: '/api/labels/:id', status: 204 },
  cli: { command: 'label remove', positionals: ['id'], usage: '<label id>', examples: ['svc label remove 3'], text: (label, print) => print.line(`label ${label.id} removed`) },
  handler: (input, ctx) => {
    const { labels } = ctx.services.domain;
    const record = labels.get(input.id);
    labels.remove(record.id);
    return record;
  },
});
