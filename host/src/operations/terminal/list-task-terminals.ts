import { z } from 'zod';
import { defineOperation, listOf, scopedItems } from '../../operation-framework/index.js';
import { liveTerminals } from './live-terminals.js';
import { TerminalSummarySchema } from './terminal-schemas.js';

export const listTaskTerminals = defineOperation({
  name: 'list_task_terminals',
  group: 'terminal',
  description: 'List the task terminals the running service holds.',
  readOnly: true,
  runsIn: 'service',
  readScope: { after: (output, scope) => scopedItems(output, (item) => scope.taskVisible(item.taskId as number)) },
  reach: { names: {} },
  input: z.object({}).strict(),
  output: listOf(TerminalSummarySchema),
  http: { method: 'GET', path: '/api/internal/terminal' },
  cli: {
    command: 'task terminals',
    examples: ['svc task terminals'],
    json: (output) => output.items,
    text: ({ items }, print) => {
      if (items.length === 0) print.line('no task terminals');
      else print.table(['TASK', 'EXECUTION', 'STATE', 'PID', 'ATTACHED'], items.map((t) => [String(t.taskId), String(t.executionId), t.state, String(t.pid), String(t.attached)]));
    },
  },
  handler: (_input, ctx) => ({ items: liveTerminals(ctx).list() }),
});
