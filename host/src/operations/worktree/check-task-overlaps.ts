import { z } from 'zod';
import { taskWorktreesOf } from '../../features/worktrees/index.js';
import { defineOperation, RefSchema } from '../../operation-framework/index.js';
import { TaskOverlapSchema } from './worktree-schemas.js';

export const checkTaskOverlaps = defineOperation({
  name: 'check_task_overlaps',
  group: 'review',
  description:
    "Compare the branches of a project's open tasks with each other and with their base branch's current tip now (git merge-tree, no working tree touched): files two tasks both changed, and which would conflict.",
  readOnly: false,
  idempotent: true,
  runsIn: 'any',
  reach: { names: { projectId: 'project' } },
  input: z.object({ projectId: RefSchema }).strict(),
  output: z.object({
    items: z.array(TaskOverlapSchema),
    /** Open tasks whose branch would conflict with its base branch's current tip. */
    baseConflicts: z.array(z.object({ taskId: z.number().int(), baseBranch: z.string(), files: z.array(z.string()) })),
  }),
  http: { method: 'POST', path: '/api/projects/:projectId/overlaps/check' },
  cli: {
    command: 'project overlaps',
    positionals: ['projectId'],
    usage: '<project>',
    expects: 'exactly one project',
    examples: ['svc project overlaps app'],
    json: (output) => output.items,
    text({ items, baseConflicts }, print) {
      if (items.length === 0) print.line('no open tasks overlap');
      else
        print.table(
          ['TASKS', 'FILES BOTH CHANGED', 'WOULD CONFLICT'],
          items.map((overlap) => [`${overlap.taskA} ${overlap.taskB}`, overlap.files.join(', '), overlap.conflicts.join(', ') || '(none)']),
        );
      for (const conflict of baseConflicts) print.line(`task ${conflict.taskId} conflicts with ${conflict.baseBranch} in ${conflict.files.join(', ')}`);
    },
  },
  handler: async (input, ctx) => {
    const truth = await taskWorktreesOf(ctx.services).checkOverlaps(ctx.services.domain.projects.resolve(input.projectId).id);
    return { items: truth.overlaps, baseConflicts: truth.baseConflicts.map(({ taskId, baseBranch, files }) => ({ taskId, baseBranch, files })) };
  },
});
