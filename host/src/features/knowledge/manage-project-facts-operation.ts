import { z } from 'zod';
import { defineOperation } from '../../operation-framework/index.js';
import { FactSchema } from './fact-store.js';
import { ProjectKnowledge } from './project-knowledge.js';
import { requireFields } from './require-fields.js';

export const manageProjectFacts = defineOperation({
  name: 'manage_project_facts',
  group: 'knowledge',
  description:
    'Write short key/value facts about a project that later questions are answered from ("test command" = "pnpm test"); list_project_facts reads them. ' +
    'action set (creates or replaces key) | delete.',
  readOnly: false,
  destructive: true,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { projectId: 'project' } },
  input: z
    .object({
      action: z.enum(['set', 'delete']),
      projectId: z.number().int().positive(),
      key: z.string().trim().min(1).max(200).optional().describe('for set and delete'),
      value: z.string().min(1).max(10_000).optional().describe('for set'),
    })
    .strict(),
  output: z.object({ action: z.string(), fact: FactSchema }),
  http: { method: 'POST', path: '/api/projects/:projectId/facts' },
  handler(input, ctx) {
    ctx.services.domain.projects.get(input.projectId);
    const facts = new ProjectKnowledge(ctx.services.db).facts;
    switch (input.action) {
      case 'set': {
        const { key, value } = requireFields(input, input.action, ['key', 'value']);
        return { action: input.action, fact: facts.set(input.projectId, key, value) };
      }
      case 'delete': {
        const { key } = requireFields(input, input.action, ['key']);
        return { action: input.action, fact: facts.remove(input.projectId, key) };
      }
    }
  },
});
