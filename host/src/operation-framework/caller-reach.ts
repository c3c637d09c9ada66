// What a caller bound to one task may reach (a task terminal's `svc mcp`, proven by its execution's
// credential, or an MCP token made with `--task`): its own task and the tasks below it (a project's
// Workbench: every task of its project), and within its project only. Each operation declares which
// of its input fields name a record (`reach`); the check below runs on the parsed input, after each
// named id or name is resolved to its record the way the handlers resolve it, for every operation
// alike, before it runs here or is forwarded to the service. An operation that declares no reach is
// refused to such a caller: a new operation cannot be forgotten.
import { SvcError } from '@svc-org/ai-sdk';
import type { CallerCheck } from './caller-check.js';
import type { AnyOperation } from './define-operation.js';
import type { OperationCaller, OperationServices, ProjectScope } from './operation-context.js';
import type { RecordKind, RecordResolver, ReachedRecord } from './operation-reach.js';

const BUILT_IN: Readonly<Record<RecordKind, RecordResolver>> = {
  task: (services, value) => {
    const task = services.domain.tasks.find(Number(value));
    return task && { taskId: task.id, projectId: task.projectId };
  },
  execution: (services, value) => ({ taskId: services.domain.executions.get(Number(value)).taskId }),
  project: (services, value) => ({ projectId: services.domain.projects.resolve(value).id }),
  workspace: (services, value) => ({ workspaceId: services.domain.workspaces.resolve(value).id }),
  label: (services, value) => ({ projectId: services.domain.labels.get(Number(value)).projectId }),
};

/** The project scope of a task-bound caller: lists and searches read its task's project only. */
export function taskProjectScope(services: OperationServices, taskId: number): ProjectScope[] {
  const task = services.domain.tasks.find(taskId);
  if (!task) return [];
  const project = services.domain.projects.get(task.projectId);
  return [{ workspaceId: project.workspaceId, projectId: project.id }];
}

export interface TaskReachOptions {
  /**
   * Whether a task coordinates its whole project (a project's Workbench, which the host does not know
   * by itself): it then reaches every task of its project, not only those below it.
   */
  coordinatesProject?: (services: OperationServices, taskId: number) => boolean;
}

/**
 * The caller check that refuses a task-bound caller an operation or a record outside its reach
 * (`task_out_of_scope`, said the same whether the record exists or not); any other caller passes.
 * It runs on the parsed input (see `OperationInvokerOptions.checks`).
 */
export function taskReach(options: TaskReachOptions = {}): CallerCheck {
  return (operation, input, caller, services) => {
    const callerTaskId = caller.taskId;
    if (callerTaskId === undefined) return;
    const reach = operation.reach;
    if (!reach || reach.taskCaller === 'refused') {
      throw outOfReach(callerTaskId, `${operation.name} is not for a task's own terminal or token`, { tool: operation.name });
    }
    const own = services.domain.tasks.find(callerTaskId);
    if (!own) throw outOfReach(callerTaskId, `task ${callerTaskId} no longer exists`, { tool: operation.name });
    let coordinates: boolean | undefined;
    const reachesTask = (taskId: number) =>
      isSelfOrBelow(services, own.id, taskId) ||
      ((coordinates ??= options.coordinatesProject?.(services, own.id) ?? false) && services.domain.tasks.find(taskId)?.projectId === own.projectId);
    const fields = (input ?? {}) as Record<string, unknown>;
    for (const [field, kind] of Object.entries(reach.names ?? {})) {
      const value = fields[field];
      if (typeof value !== 'number' && typeof value !== 'string') continue;
      // The caller's own task, read just above, is not read again.
      const record = kind === 'task' && Number(value) === own.id ? { taskId: own.id } : resolveQuietly(typeof kind === 'function' ? kind : BUILT_IN[kind], services, value);
      if (!record || !withinReach(services, own, record, reachesTask)) {
        const what = `${field} ${typeof value === 'string' ? JSON.stringify(value) : value}`;
        throw outOfReach(callerTaskId, `${operation.name}: ${what} is outside what task ${callerTaskId} may reach`, { tool: operation.name, field });
      }
    }
  };
}

function resolveQuietly(resolve: RecordResolver, services: OperationServices, value: number | string): ReachedRecord | undefined {
  try {
    return resolve(services, value);
  } catch (error) {
    // Not found, or a name that fits several: said as out of reach, like a record that exists elsewhere.
    if (SvcError.isInstance(error)) return undefined;
    throw error;
  }
}

function withinReach(services: OperationServices, own: { id: number; projectId: number }, record: ReachedRecord, reachesTask: (taskId: number) => boolean): boolean {
  if (record.taskId !== undefined) return reachesTask(record.taskId);
  if (record.projectId !== undefined) return record.projectId === own.projectId;
  if (record.workspaceId !== undefined) return record.workspaceId === services.domain.projects.get(own.projectId).workspaceId;
  return false;
}

/** The task itself or one of its descendants (walking up from the named task). */
function isSelfOrBelow(services: OperationServices, ownTaskId: number, taskId: number): boolean {
  const seen = new Set<number>();
  for (let at: number | null = taskId; at !== null && !seen.has(at); ) {
    if (at === ownTaskId) return true;
    seen.add(at);
    at = services.domain.tasks.find(at)?.parentTaskId ?? null;
  }
  return false;
}

function outOfReach(callerTaskId: number, message: string, details: Record<string, unknown>): SvcError {
  return new SvcError({
    code: 'task_out_of_scope',
    message,
    details: { ...details, callerTaskId, fix: `a task's terminal or task token reaches its own task, the tasks below it and its own project (docs/mcp.md, "What a task may reach")` },
  });
}
