import { SvcError } from '@svc-org/ai-sdk';
import { resolveSvcHome } from '../../config/svc-home.js';
import { TASK_STATUSES, type ExecutionRecord, type TaskRecord, type TaskStatus } from '../../domain/index.js';
import type { HostServices } from '../../host-services.js';
import { ServiceClient } from '../../server/service-client.js';
import { attachRemoteTerminal } from '../attach-remote-terminal.js';
import type { CliIo } from '../cli-io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { printTable } from '../print-table.js';
import { UsageError } from '../usage-error.js';

export const TASK_USAGE = `svc task create <title> --project <id|name> [--description <text>] [--parent <task id>] [--label <name>]... [--status <S>] [--unattended]
svc task list [--project <id|name>] [--status <S>] [--parent <task id>] [--json]
svc task show <id> [--json]
svc task update <id> [--title <t>] [--description <text>] [--status <S>] [--parent <task id> | --no-parent] [--label <name>]... [--no-labels] [--unattended | --attended]
svc task remove <id>
svc task start <id> --connection <name> [--model <m>] [--attach]     (needs \`svc serve\`)
svc task attach <id>                     live terminal; Ctrl-] detaches and leaves it running
svc task output <id> [--cursor <n>] [--json] [--follow]
svc task stop <id>
svc task resume <id> [--connection <name>] [--model <m>] [--fresh] [--attach]
  statuses: ${TASK_STATUSES.join(', ')}`;

type Open = () => Promise<HostServices>;

interface BufferRead {
  executionId: number;
  state: string;
  data: string;
  cursor: number;
  start: number;
  end: number;
  behind: boolean;
  missedBytes: number;
  more: boolean;
}

export async function taskCommand(args: string[], io: CliIo, open: Open, signal: AbortSignal): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'create':
      return create(rest, io, open);
    case 'list':
      return list(rest, io, open);
    case 'show':
      return show(rest, io, open);
    case 'update':
      return update(rest, io, open);
    case 'remove': {
      const { positionals } = parseCommandArgs(rest, {}, TASK_USAGE);
      const id = taskId(positionals);
      (await open()).domain.tasks.remove(id);
      io.stdout.write(`task ${id} removed\n`);
      return 0;
    }
    case 'start':
    case 'resume':
      return launch(sub, rest, io, signal);
    case 'attach': {
      const { positionals } = parseCommandArgs(rest, {}, TASK_USAGE);
      return attach(taskId(positionals), io, signal);
    }
    case 'output':
      return output(rest, io, signal);
    case 'stop': {
      const { positionals } = parseCommandArgs(rest, {}, TASK_USAGE);
      const id = taskId(positionals);
      const execution = await client(io).request<ExecutionRecord>('POST', `/api/internal/terminal/${id}/stop`, {});
      io.stdout.write(`task ${id} stopped: execution ${execution.id} ${describeEnd(execution)}\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown task command "${sub ?? ''}"\nusage:\n${TASK_USAGE}`);
  }
}

async function create(args: string[], io: CliIo, open: Open): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      project: { type: 'string', short: 'p' },
      description: { type: 'string', short: 'd' },
      parent: { type: 'string' },
      label: { type: 'string', multiple: true },
      status: { type: 'string' },
      unattended: { type: 'boolean' },
      json: { type: 'boolean' },
    },
    TASK_USAGE,
  );
  if (positionals.length !== 1) throw new UsageError(`expected one title (quote it)\nusage:\n${TASK_USAGE}`);
  if (!values.project) throw new UsageError(`--project is required\nusage:\n${TASK_USAGE}`);
  const { domain } = await open();
  const project = domain.projects.resolve(values.project);
  const task = domain.tasks.create({
    projectId: project.id,
    title: positionals[0]!,
    description: values.description ?? '',
    ...(values.status ? { status: status(values.status) } : {}),
    parentTaskId: values.parent ? idOf(values.parent, '--parent') : null,
    labels: values.label ?? [],
    unattended: Boolean(values.unattended),
  });
  if (values.json) io.stdout.write(`${JSON.stringify(task, null, 2)}\n`);
  else io.stdout.write(`task ${task.id} created in project "${project.name}" (${task.status})\n`);
  return 0;
}

async function list(args: string[], io: CliIo, open: Open): Promise<number> {
  const { values } = parseCommandArgs(
    args,
    { project: { type: 'string', short: 'p' }, status: { type: 'string' }, parent: { type: 'string' }, json: { type: 'boolean' } },
    TASK_USAGE,
  );
  const { domain } = await open();
  const tasks = domain.tasks.list({
    ...(values.project ? { projectId: domain.projects.resolve(values.project).id } : {}),
    ...(values.status ? { status: status(values.status) } : {}),
    ...(values.parent ? { parentTaskId: idOf(values.parent, '--parent') } : {}),
  });
  if (values.json) io.stdout.write(`${JSON.stringify(tasks, null, 2)}\n`);
  else if (tasks.length === 0) io.stdout.write('no tasks\n');
  else
    printTable(
      io,
      ['ID', 'PROJECT', 'STATUS', 'PARENT', 'LABELS', 'TITLE'],
      tasks.map((t) => [String(t.id), String(t.projectId), t.status, t.parentTaskId === null ? '' : String(t.parentTaskId), t.labels.join(','), t.title]),
    );
  return 0;
}

async function show(args: string[], io: CliIo, open: Open): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, TASK_USAGE);
  const { domain } = await open();
  const task = domain.tasks.get(taskId(positionals));
  const executions = domain.executions.list({ taskId: task.id, limit: 10 });
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ ...task, executions }, null, 2)}\n`);
    return 0;
  }
  printTask(io, task);
  if (executions.length === 0) io.stdout.write('executions   (none)\n');
  else {
    io.stdout.write('executions\n');
    printTable(
      io,
      ['  ID', 'STATUS', 'MODE', 'CONNECTION', 'STARTED', 'ENDED'],
      executions.map((e) => [`  ${e.id}`, e.status + (e.endReason ? ` (${e.endReason})` : ''), e.mode, e.connectionName, e.startedAt, e.endedAt ?? '']),
    );
    // What the latest run's CLI could not be given (MCP server, hooks, directive): the ladder may not hold there.
    for (const entry of executions[0]!.unsupportedAttachments) {
      io.stdout.write(`not attached ${entry.kind}: ${entry.reason} (execution ${executions[0]!.id})\n`);
    }
  }
  return 0;
}

async function update(args: string[], io: CliIo, open: Open): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      title: { type: 'string' },
      description: { type: 'string', short: 'd' },
      status: { type: 'string' },
      parent: { type: 'string' },
      'no-parent': { type: 'boolean' },
      label: { type: 'string', multiple: true },
      'no-labels': { type: 'boolean' },
      unattended: { type: 'boolean' },
      attended: { type: 'boolean' },
    },
    TASK_USAGE,
  );
  if (values.parent && values['no-parent']) throw new UsageError('--parent and --no-parent exclude each other');
  if (values.unattended && values.attended) throw new UsageError('--unattended and --attended exclude each other');
  if (values.label && values['no-labels']) throw new UsageError('--label and --no-labels exclude each other');
  const id = taskId(positionals);
  const { domain } = await open();
  const task = domain.tasks.update(id, {
    ...(values.title !== undefined ? { title: values.title } : {}),
    ...(values.description !== undefined ? { description: values.description } : {}),
    ...(values.status ? { status: status(values.status) } : {}),
    ...(values.parent ? { parentTaskId: idOf(values.parent, '--parent') } : {}),
    ...(values['no-parent'] ? { parentTaskId: null } : {}),
    ...(values.label ? { labels: values.label } : {}),
    ...(values['no-labels'] ? { labels: [] } : {}),
    ...(values.unattended ? { unattended: true } : {}),
    ...(values.attended ? { unattended: false } : {}),
  });
  io.stdout.write(`task ${task.id} updated (${task.status})\n`);
  return 0;
}

async function launch(sub: 'start' | 'resume', args: string[], io: CliIo, signal: AbortSignal): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    { connection: { type: 'string', short: 'c' }, model: { type: 'string', short: 'm' }, fresh: { type: 'boolean' }, attach: { type: 'boolean' } },
    TASK_USAGE,
  );
  const id = taskId(positionals);
  if (sub === 'start' && !values.connection) throw new UsageError(`--connection is required\nusage:\n${TASK_USAGE}`);
  if (sub === 'start' && values.fresh) throw new UsageError('--fresh belongs to `svc task resume`');
  const size = io.stdout.columns && io.stdout.rows ? { cols: io.stdout.columns, rows: io.stdout.rows } : {};
  const body = {
    ...(values.connection ? { connection: values.connection } : {}),
    ...(values.model ? { model: values.model } : {}),
    ...(values.fresh ? { fresh: true } : {}),
    ...size,
  };
  const service = client(io);
  const execution = await service.request<ExecutionRecord>('POST', `/api/internal/terminal/${id}/${sub}`, body);
  const how = execution.mode === 'fresh' ? 'fresh session' : execution.sessionId ? `resuming session ${execution.sessionId}` : 'continuing the most recent session';
  io.stdout.write(
    `task ${id} ${sub === 'start' ? 'started' : 'resumed'}: execution ${execution.id} (${how}, ${execution.providerId} via ${execution.connectionName}, pid ${execution.pid})\n`,
  );
  if (values.attach) return attachAndReport(service, id, io, signal);
  io.stdout.write(`attach with: svc task attach ${id}\n`);
  return 0;
}

async function attach(id: number, io: CliIo, signal: AbortSignal): Promise<number> {
  return attachAndReport(client(io), id, io, signal);
}

async function attachAndReport(service: ServiceClient, id: number, io: CliIo, signal: AbortSignal): Promise<number> {
  const outcome = await attachRemoteTerminal(service, id, io, signal);
  if (outcome === 'detached') {
    io.stderr.write(`\r\n[detached from task ${id}; it keeps running — \`svc task attach ${id}\` to come back]\r\n`);
    return 0;
  }
  const state = await service.request<{ execution: ExecutionRecord | null }>('GET', `/api/internal/terminal/${id}`);
  io.stderr.write(`\r\n[task ${id}: execution ${state.execution?.id ?? '?'} ${state.execution ? describeEnd(state.execution) : 'ended'}]\r\n`);
  return 0;
}

async function output(args: string[], io: CliIo, signal: AbortSignal): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    { cursor: { type: 'string' }, json: { type: 'boolean' }, follow: { type: 'boolean', short: 'f' } },
    TASK_USAGE,
  );
  const id = taskId(positionals);
  const service = client(io);
  const cursor = values.cursor === undefined ? undefined : idOrZero(values.cursor);
  if (values.follow) {
    const controller = new AbortController();
    signal.addEventListener('abort', () => controller.abort(), { once: true });
    const response = await service
      .open('GET', `/api/internal/terminal/${id}/stream${cursor === undefined ? '' : `?cursor=${cursor}`}`, controller.signal)
      .catch((error: unknown) => {
        // An ended terminal has nothing to follow: print what it left, as without --follow.
        if (SvcError.hasCode(error) && error.code === 'terminal_not_running') return undefined;
        throw error;
      });
    if (response) {
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) io.stdout.write(chunk);
      } catch (error) {
        if (!controller.signal.aborted) throw error;
      }
      return 0;
    }
  }
  const path = `/api/internal/terminal/${id}/buffer${cursor === undefined ? '' : `?cursor=${cursor}`}`;
  const read = await service.request<BufferRead>('GET', path);
  if (values.json) {
    io.stdout.write(`${JSON.stringify(read, null, 2)}\n`);
    return 0;
  }
  if (read.behind) io.stderr.write(`[${read.missedBytes} bytes scrolled out of the buffer before this read]\n`);
  io.stdout.write(read.data);
  // The retained window can be larger than one read: page through it.
  let next = read;
  while (next.more) {
    next = await service.request<BufferRead>('GET', `/api/internal/terminal/${id}/buffer?cursor=${next.cursor}`);
    io.stdout.write(next.data);
  }
  return 0;
}

function client(io: CliIo): ServiceClient {
  return ServiceClient.connect(resolveSvcHome(io.env));
}

function printTask(io: CliIo, task: TaskRecord): void {
  io.stdout.write(`id           ${task.id}\ntitle        ${task.title}\nproject      ${task.projectId}\nstatus       ${task.status}\n`);
  io.stdout.write(`parent       ${task.parentTaskId ?? '(none)'}\nlabels       ${task.labels.join(', ') || '(none)'}\n`);
  io.stdout.write(`unattended   ${task.unattended}\ndescription  ${task.description}\n`);
}

function describeEnd(execution: ExecutionRecord): string {
  if (execution.status === 'RUNNING' || execution.status === 'PAUSED') return execution.status;
  const how = execution.exitSignal ? `signal ${execution.exitSignal}` : `exit ${execution.exitCode ?? '?'}`;
  return `${execution.status} (${how}${execution.endReason ? `, ${execution.endReason}` : ''})`;
}

function taskId(positionals: string[]): number {
  if (positionals.length !== 1) throw new UsageError(`expected exactly one task id\nusage:\n${TASK_USAGE}`);
  return idOf(positionals[0]!, 'task id');
}

function idOf(value: string, what: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`${what} must be a task id (a positive number), got "${value}"`);
  return Number(value);
}

function idOrZero(value: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`--cursor takes a number, got "${value}"`);
  return Number(value);
}

/** `in-progress`, `in_progress` and `IN_PROGRESS` all name the same status. */
function status(value: string): TaskStatus {
  const normalized = value.trim().toUpperCase().replace(/-/g, '_');
  if (!(TASK_STATUSES as readonly string[]).includes(normalized)) {
    throw new SvcError({ code: 'invalid_request', message: `unknown status "${value}" (use ${TASK_STATUSES.join(', ')})` });
  }
  return normalized as TaskStatus;
}
