import { z } from 'zod';
import { LabelSchema } from '../../features/domain/index.js';
import { defineOperation, listOf, RefSchema } from '../../operation-framework/index.js';

export const listLabels = defineOperation({
  name: 'list_labels',
  group: 'label',
  description: "List a project's labels.",
  readOnly: true,
  runsIn: 'any',
  readScope: { before: (input, scope) => scope.project(input.projectId) },
  reach: { names: { projectId: 'project' } },
  input: z.object({ projectId: RefSchema }).strict(),
  output: listOf(LabelSchema),
  http: { method: 'GET', path: '/api/projects/:projectId/labels' },
  cli: {
    command: 'label list',
    flags: { projectId: { flag: 'project', short: 'p', value: '<id|name>', description: 'the project (required)' } },
    examples: ['svc label list --project app'],
    json: (output) => output.items,
    text: ({ items }, print) => {
      if (items.length === 0) print.line('no labels');
      else print.table(['ID', 'NAME', 'COLOR'], items.map((l) => [String(l.id), l.name, l.color ?? '']));
    },
  },
  handler: (input, ctx) => {
    const { domain } = ctx.services;
    return { items: domain.labels.list(domain.projects.resolve(input.projectId).id) };
  },
});
