import { EXECUTION_STATUSES, type ExecutionStatus } from '../../../features/domain/index.js';
import { executionWords } from '../../../features/lifecycle/index.js';
// By group, not the registry (app/all-operations.ts): that evaluates every operation's declaration.
import { getExecution, listExecutions } from '../../../operations/execution/index.js';
import * as executionOperations from '../../../operations/execution/index.js';
import type { CliCommand } from '../cli-command.js';
import { positiveId } from '../positive-id.js';
import { printJson } from '../print-json.js';
import { printFields } from '../print-fields.js';
import { printTable } from '../print-table.js';
import { singlePositional } from '../single-positional.js';
import { UsageError } from '../usage-error.js';
import { declaredCommands } from '../operation-command.js';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

// Written by hand; an operation of the group that declares its command (`cli`) joins them after these.
export const EXECUTION_COMMANDS: CliCommand[] = declaredCommands([executionOperations], [
  {
    group: 'execution',
    name: 'list',
    operation: listExecutions,
    options: {
      task: { type: 'string', value: '<task id>', description: 'only the executions of this task' },
      status: { type: 'string', value: '<status>', description: `only this status (${EXECUTION_STATUSES.join(', ')}; any case, - or _)` },
      limit: { type: 'string', value: '<n>', description: 'at most this many (default 100)' },
    },
    json: true,
    examples: ['svc execution list --task 12'],
    async run(run) {
      const status = text(run.values.status);
      const { items } = await run.invoke(listExecutions, {
        ...(text(run.values.task) ? { taskId: positiveId(text(run.values.task)!, '--task') } : {}),
        ...(status ? { status: status as ExecutionStatus } : {}),
        ...(text(run.values.limit) ? { limit: positiveId(text(run.values.limit)!, '--limit') } : {}),
      });
      if (run.json) printJson(run.io, items);
      else if (items.length === 0) run.io.stdout.write('no executions\n');
      else
        printTable(
          run.io,
          ['ID', 'TASK', 'STATUS', 'MODE', 'CONNECTION', 'STARTED', 'ENDED'],
          items.map((e) => [String(e.id), String(e.taskId), executionWords(e), e.mode, e.connectionName, e.startedAt, e.endedAt ?? '']),
          run.style,
        );
      return 0;
    },
  },
  {
    group: 'execution',
    name: 'show',
    operation: getExecution,
    positionals: '<id>',
    options: {},
    json: true,
    examples: ['svc execution show 7'],
    async run(run) {
      const e = await run.invoke(getExecution, { id: positiveId(singlePositional(run, this, 'execution id'), 'execution id') });
      if (run.json) printJson(run.io, e);
      else {
        run.io.stdout.write(`id           ${e.id}\ntask         ${e.taskId}\nstatus       ${executionWords(e)}${e.endReason ? ` (${e.endReason})` : ''}\n`);
        run.io.stdout.write(`connection   ${e.connectionName} (${e.providerId})\nmode         ${e.mode}\nsession      ${e.sessionId ?? '(none)'}\n`);
        run.io.stdout.write(`started      ${e.startedAt}\nended        ${e.endedAt ?? ''}\nexit         ${e.exitSignal ? `signal ${e.exitSignal}` : (e.exitCode ?? '')}\n`);
        if (e.error) printFields(run.io, [['error', `${e.error.code}: ${e.error.message}`, 'text']]);
      }
      return 0;
    },
  },
]);
