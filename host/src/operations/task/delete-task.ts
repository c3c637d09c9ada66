import { z } from 'zod';
import { taskSchema } from '../../features/domain/index.js';
import { defineOperation, IdSchema } from '../../operation-framework/index.js';

export const deleteTask = defineOperation({
  name: 'delete_task',
  group: 'task',
  description: 'Remove a task without children or a live terminal (its worktree too; its branch stays); answers the removed record.',
  readOnly: false,
  destructive: true,
  runsIn: 'any',
  reach: { names: { id: 'task' } },
  input: z.object({ id: IdSchema }).strict(),
  get output() {
    return taskSchema();
  },
  http: { method: 'DELETE', path: '/api/tasks/:id', status: 204 },
  cli: { command: 'task remove', positionals: ['id'], examples: ['svc task remove 12'], text: (task, print) => print.line(`task ${task.id} removed`) },
  handler: async (input, ctx) => {
    const { tasks } = ctx.services.domain;
    const record = tasks.get(input.id);
    // Its worktree goes first (what it had not committed is committed to its branch); the branch stays.
    // Loaded here: the commands that evaluate this declaration (`svc task list`) need none of the worktree feature.
    const { taskWorktreesOf } = await import('../../features/worktrees/index.js');
    await taskWorktreesOf(ctx.services).forget(record.id);
    tasks.remove(record.id);
    return record;
  },
});
