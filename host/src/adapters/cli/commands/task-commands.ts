import { SvcError } from '@svc-org/ai-sdk';
import { resolveSvcHome } from '../../../platform/config/index.js';
import { TASK_STATUSES, type ExecutionRecord, type TaskStatus } from '../../../features/domain/index.js';
import { attentionInWords, executionWords } from '../../../features/lifecycle/index.js';
// By group, not through the registry (app/all-operations.ts): `svc task …` evaluates only the declarations it uses.
import * as execution from '../../../operations/execution/index.js';
import { getProject } from '../../../operations/project/index.js';
import * as task from '../../../operations/task/index.js';
import * as terminal from '../../../operations/terminal/index.js';
// A type only: the client is imported by the commands that reach the service (below).
import type { ServiceClient } from '../../../client/service-client.js';
import { attachRemoteTerminal } from '../attach-remote-terminal.js';
import type { CliCommand, CliRun } from '../cli-command.js';
import { streamOf } from '../cli-io.js';
import { positiveId } from '../positive-id.js';
import { printJson } from '../print-json.js';
import { printFields } from '../print-fields.js';
import { printTable } from '../print-table.js';
import { terminalLine } from '../terminal-text.js';
import { requireTerminal } from '../require-terminal.js';
import { singlePositional } from '../single-positional.js';
import { UsageError } from '../usage-error.js';
import { declaredCommands } from '../declared-commands.js';

const o = { ...task, ...terminal, ...execution, getProject };
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const list = (value: unknown) => (Array.isArray(value) ? (value as string[]) : undefined);
const taskIdOf = (run: CliRun, command: CliCommand) => positiveId(singlePositional(run, command, 'task id'), 'task id');
const STATUS_HELP = `one of ${TASK_STATUSES.join(', ')} (any case, - or _)`;

/** Live, or how it ended in a person's words: "Stopped", "Interrupted — resumable", "Failed (exit 3)". */
function describeEnd(execution: ExecutionRecord): string {
  return executionWords(execution);
}

/**
 * The running service. Imported here, not at the top: the commands that answer from the database
 * (`svc task list`) never evaluate the client (its install token loads node:crypto, its server
 * file node:child_process). Direct, not through client/index.ts: no HTTP stack of `svc serve`.
 */
async function client(run: CliRun): Promise<ServiceClient> {
  const { ServiceClient } = await import('../../../client/service-client.js');
  return ServiceClient.connect(resolveSvcHome(run.io.env));
}

async function attachAndReport(run: CliRun, id: number): Promise<number> {
  const service = await client(run);
  const outcome = await attachRemoteTerminal(service, id, run.io, run.signal);
  if (outcome === 'detached') {
    run.io.stderr.write(`\r\n[detached from task ${id}; it keeps running — \`svc task attach ${id}\` to come back]\r\n`);
    return 0;
  }
  const state = await service.call(o.getTaskTerminalStatus, { taskId: id });
  run.io.stderr.write(`\r\n[task ${id}: execution ${state.execution?.id ?? '?'} ${state.execution ? describeEnd(state.execution) : 'ended'}]\r\n`);
  return 0;
}

const LAUNCH_OPTIONS = {
  connection: { type: 'string', short: 'c', value: '<name>', description: 'the connection that runs the CLI' },
  model: { type: 'string', short: 'm', value: '<model>', description: 'the model to ask the CLI for' },
  attach: { type: 'boolean', description: 'attach this terminal right away (needs a terminal)' },
} as const;

async function launch(run: CliRun, command: CliCommand, kind: 'start' | 'resume'): Promise<number> {
  const id = taskIdOf(run, command);
  if (run.values.attach) requireTerminal(run.io, `svc task ${kind} --attach`);
  const size = run.io.stdout.columns && run.io.stdout.rows ? { cols: run.io.stdout.columns, rows: run.io.stdout.rows } : {};
  const common = { ...(text(run.values.model) ? { model: text(run.values.model) } : {}), ...size };
  let execution: ExecutionRecord;
  if (kind === 'start') {
    const connection = text(run.values.connection);
    if (!connection) throw new UsageError('--connection is required\nusage: svc task start <id> --connection <name>');
    execution = await run.invoke(o.startTaskExecution, { taskId: id, connection, ...common });
  } else {
    execution = await run.invoke(o.resumeTaskTerminal, {
      taskId: id,
      ...(text(run.values.connection) ? { connection: text(run.values.connection) } : {}),
      ...(run.values.fresh ? { fresh: true } : {}),
      ...common,
    });
  }
  if (run.json && !run.values.attach) {
    printJson(run.io, execution);
    return 0;
  }
  const how = execution.mode === 'fresh' ? 'fresh session' : execution.sessionId ? `resuming session ${execution.sessionId}` : 'continuing the most recent session';
  run.io.stdout.write(
    `task ${id} ${kind === 'start' ? 'started' : 'resumed'}: execution ${execution.id} (${how}, ${execution.providerId} via ${execution.connectionName}, pid ${execution.pid})\n`,
  );
  if (run.values.attach) return attachAndReport(run, id);
  run.io.stdout.write(`attach with: svc task attach ${id}\n`);
  return 0;
}

// The commands written here run more than their one operation (a launch that attaches, an output that
// follows, a record shown with its executions); every other `svc task` command is declared with its
// operation (the `cli` part) and derived from it.
const HAND_WRITTEN: CliCommand[] = [
  {
    group: 'task',
    name: 'create',
    operation: o.createTask,
    positionals: '<title>',
    options: {
      project: { type: 'string', short: 'p', value: '<id|name>', description: 'the project it belongs to (required)' },
      description: { type: 'string', short: 'd', value: '<text>', description: 'what to do, in detail' },
      parent: { type: 'string', value: '<task id>', description: 'make it a child of this task (same project)' },
      label: { type: 'string', multiple: true, value: '<name>', description: 'a label of the project (repeat for more)' },
      status: { type: 'string', value: '<status>', description: `starting column, ${STATUS_HELP}` },
      unattended: { type: 'boolean', description: "nobody watches its terminal: its questions and its CLI's permission requests go to a person through svc" },
    },
    json: true,
    examples: ['svc task create "Fix the login page" --project app --label bug'],
    async run(run) {
      if (run.positionals.length !== 1) throw new UsageError('expected one title (quote it)\nusage: svc task create <title> --project <id|name>');
      const project = text(run.values.project);
      if (!project) throw new UsageError('--project is required\nusage: svc task create <title> --project <id|name>');
      const task = await run.invoke(o.createTask, {
        projectId: project,
        title: run.positionals[0]!,
        description: text(run.values.description) ?? '',
        ...(text(run.values.status) ? { status: text(run.values.status)! as TaskStatus } : {}),
        parentTaskId: text(run.values.parent) ? positiveId(text(run.values.parent)!, '--parent') : null,
        labels: list(run.values.label) ?? [],
        unattended: Boolean(run.values.unattended),
      });
      if (run.json) printJson(run.io, task);
      else run.io.stdout.write(`task ${task.id} created in project "${(await run.invoke(o.getProject, { id: task.projectId })).name}" (${task.status})\n`);
      return 0;
    },
  },
  {
    group: 'task',
    name: 'show',
    operation: o.getTask,
    description: 'Show one task: title, status, project, parent, labels, description, what it asks of you now (needs you, conflicts, working, ready for review, idle, done) and its latest executions.',
    alsoUses: [o.listExecutions],
    positionals: '<id>',
    options: {},
    json: true,
    examples: ['svc task show 12'],
    async run(run) {
      const task = await run.invoke(o.getTask, { id: taskIdOf(run, this) });
      const { items: executions } = await run.invoke(o.listExecutions, { taskId: task.id, limit: 10 });
      if (run.json) {
        printJson(run.io, { ...task, executions });
        return 0;
      }
      const io = run.io;
      printFields(io, [
        ['id', task.id],
        ['title', task.title],
        ['project', `${task.projectName} (${task.projectId})`],
        ['status', task.status],
        ['attention', attentionInWords(task, true)],
        ...(task.mergedCommit ? [['merged as', task.mergedCommit.slice(0, 12)] as [string, string]] : []),
        ['parent', task.parentTaskId ?? '(none)'],
        ['labels', task.labels.join(', ') || '(none)'],
        ['unattended', task.unattended],
        ['description', task.description, 'text'],
      ]);
      if (executions.length === 0) io.stdout.write('executions   (none)\n');
      else {
        io.stdout.write('executions\n');
        printTable(
          io,
          ['  ID', 'STATUS', 'MODE', 'CONNECTION', 'STARTED', 'ENDED'],
          executions.map((e) => [`  ${e.id}`, describeEnd(e), e.mode, e.connectionName, e.startedAt, e.endedAt ?? '']),
          run.style,
        );
        // What the latest run's CLI could not be given (MCP server, hooks, directive): the ladder may not hold there.
        for (const entry of executions[0]!.unsupportedAttachments ?? []) {
          io.stdout.write(`not attached ${entry.kind}: ${terminalLine(entry.reason)} (execution ${executions[0]!.id})\n`);
        }
      }
      return 0;
    },
  },
  {
    group: 'task',
    name: 'start',
    operation: o.startTaskExecution,
    description:
      "Start a fresh CLI session for a task in a terminal of the service, through a connection, in the task's own git worktree when its project isolates tasks, else in the project folder.",
    positionals: '<id>',
    options: LAUNCH_OPTIONS,
    json: true,
    examples: ['svc task start 12 --connection work-claude --attach'],
    run(run) {
      return launch(run, this, 'start');
    },
  },
  {
    group: 'task',
    name: 'resume',
    operation: o.resumeTaskTerminal,
    positionals: '<id>',
    options: { ...LAUNCH_OPTIONS, connection: { ...LAUNCH_OPTIONS.connection, description: 'another connection (default: the previous one)' }, fresh: { type: 'boolean', description: 'start a fresh session instead' } },
    json: true,
    examples: ['svc task resume 12', 'svc task resume 12 --fresh --connection work-codex'],
    run(run) {
      return launch(run, this, 'resume');
    },
  },
  {
    group: 'task',
    name: 'attach',
    description: "Show a task's live terminal here and type into it; Ctrl-] detaches and leaves it running.",
    alsoUses: [o.sendTaskTerminalInput, o.resizeTaskTerminal, o.getTaskTerminalStatus],
    positionals: '<id>',
    options: {},
    examples: ['svc task attach 12'],
    async run(run) {
      requireTerminal(run.io, 'svc task attach');
      return attachAndReport(run, taskIdOf(run, this));
    },
  },
  {
    group: 'task',
    name: 'output',
    operation: o.getTaskTerminalOutput,
    positionals: '<id>',
    options: {
      cursor: { type: 'string', value: '<n>', description: "read from this offset (a previous read's cursor)" },
      follow: { type: 'boolean', short: 'f', description: 'keep printing as output comes, until the terminal ends or Ctrl-C' },
    },
    json: true,
    examples: ['svc task output 12', 'svc task output 12 --cursor 4096 --json'],
    async run(run) {
      const id = taskIdOf(run, this);
      const rawCursor = text(run.values.cursor);
      if (rawCursor !== undefined && !/^\d+$/.test(rawCursor)) throw new UsageError(`--cursor takes a number, got "${rawCursor}"`);
      const cursor = rawCursor === undefined ? undefined : Number(rawCursor);
      if (run.values.follow) {
        const controller = new AbortController();
        run.signal.addEventListener('abort', () => controller.abort(), { once: true });
        const response = await (await client(run))
          .open('GET', `/api/internal/terminal/${id}/stream${cursor === undefined ? '' : `?cursor=${cursor}`}`, controller.signal)
          .catch((error: unknown) => {
            // An ended terminal has nothing to follow: print what it left, as without --follow.
            if (SvcError.hasCode(error) && error.code === 'terminal_not_running') return undefined;
            throw error;
          });
        if (response) {
          // Followed until the terminal ends: a reader that stops reading holds the output in memory, not svc (Ctrl-C still ends it).
          const stdout = streamOf(run.io.stdout);
          try {
            for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) stdout.write(chunk);
          } catch (error) {
            if (!controller.signal.aborted) throw error;
          }
          return 0;
        }
      }
      const read = await run.invoke(o.getTaskTerminalOutput, { taskId: id, ...(cursor === undefined ? {} : { cursor }) });
      if (run.json) {
        printJson(run.io, read);
        return 0;
      }
      if (read.behind) run.io.stderr.write(`[${read.missedBytes} bytes scrolled out of the buffer before this read]\n`);
      run.io.stdout.write(read.data);
      // The retained window can be larger than one read: page through it.
      let next = read;
      while (next.more) {
        next = await run.invoke(o.getTaskTerminalOutput, { taskId: id, cursor: next.cursor });
        run.io.stdout.write(next.data);
      }
      return 0;
    },
  },
];

export const TASK_COMMANDS: CliCommand[] = declaredCommands(
  [task, terminal],
  HAND_WRITTEN,
  ['create', 'list', 'show', 'update', 'move', 'labels', 'remove', 'start', 'resume', 'attach', 'output', 'status', 'terminals', 'stop'],
);
