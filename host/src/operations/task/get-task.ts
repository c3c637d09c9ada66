import { z } from 'zod';
import { taskView, taskViewSchema } from '../../features/lifecycle/index.js';
import { WorktreeStore } from '../../features/worktrees/worktree-store.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';

export const getTask = defineOperation({
  name: 'get_task',
  group: 'task',
  description: 'Show one task: title, status, project, parent, labels, description, and what it asks of you now (attention: needs_you, conflicts, working, ready_for_review, idle, done).',
  readOnly: true,
  runsIn: 'any',
  mcp: { delegatedRead: true },
  readScope: { after: (output, scope) => (scope.project(output.projectId), output) },
  reach: { names: { id: 'task' } },
  input: z.object({ id: IdSchema }).strict(),
  get output() {
    return taskViewSchema();
  },
  http: { method: 'GET', path: '/api/tasks/:id' },
  handler: (input, ctx) => taskView(ctx.services.db, ctx.services.domain, new WorktreeStore(ctx.services.db), input.id),
});
