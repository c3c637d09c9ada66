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
  handler: (input, ctx) => {
    const { domain } = ctx.services;
    return { items: domain.labels.list(domain.projects.resolve(input.projectId).id) };
  },
});
