import { z } from 'zod';
import { builtOnFirstUse, spelledEnum, TASK_STATUSES } from '../../features/domain/index.js';
import { attentionInWords, openApprovalCounts, taskViews, taskViewSchema } from '../../features/lifecycle/index.js';
import { WorktreeStore } from '../../features/worktrees/worktree-store.js';
import { defineOperation, IdSchema, listOf, RefSchema, scopedItems } from '../../operation-framework/index.js';

// Built at its first use: the table `svc task list` prints is the handler's own answer, checked by no schema.
const listTasksOutput = builtOnFirstUse(() => listOf(taskViewSchema()));

export const listTasks = defineOperation({
  name: 'list_tasks',
  group: 'task',
  description: 'List tasks with their project and attention (what each asks of you now), filtered by project, status or parent task.',
  readOnly: true,
  runsIn: 'any',
  readScope: {
    before: (input, scope) => {
      scope.project(input.projectId);
      scope.task(input.parentTaskId);
    },
    after: (output, scope) => scopedItems(output, (item) => scope.visibleProject(item.projectId)),
  },
  reach: { names: { projectId: 'project', parentTaskId: 'task' } },
  input: z.object({ projectId: RefSchema.optional(), status: spelledEnum(TASK_STATUSES).optional(), parentTaskId: IdSchema.optional() }).strict(),
  get output() {
    return listTasksOutput();
  },
  http: { method: 'GET', path: '/api/tasks' },
  cli: {
    command: 'task list',
    flags: {
      projectId: { flag: 'project', short: 'p', value: '<id|name>', description: 'only this project' },
      status: { value: '<status>', description: `only this column, one of ${TASK_STATUSES.join(', ')} (any case, - or _)` },
      parentTaskId: { flag: 'parent', value: '<task id>', description: 'only children of this task' },
    },
    extensions: false,
    textUnchecked: true,
    examples: ['svc task list --project app --status in-progress'],
    json: (output) => output.items,
    text: ({ items }, print) => {
      if (items.length === 0) print.line('no tasks');
      else
        print.table(
          ['ID', 'PROJECT', 'STATUS', 'ATTENTION', 'PARENT', 'LABELS', 'TITLE'],
          items.map((t) => [String(t.id), t.projectName, t.status, attentionInWords(t), t.parentTaskId === null ? '' : String(t.parentTaskId), t.labels.join(','), t.title]),
        );
    },
  },
  handler: (input, ctx) => {
    const { domain } = ctx.services;
    const tasks = domain.tasks.list({
        ...(input.projectId !== undefined ? { projectId: domain.projects.resolve(input.projectId).id } : {}),
        ...(input.status ? { status: input.status } : {}),
        ...(input.parentTaskId !== undefined ? { parentTaskId: input.parentTaskId } : {}),
    });
    return { items: taskViews(domain, new WorktreeStore(ctx.services.db), tasks, (ids) => openApprovalCounts(ctx.services.db, ids)) };
  },
});
