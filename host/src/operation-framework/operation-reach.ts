// What an operation declares of the records its input names, read by the caller policy (caller-reach.ts).
import type { OperationServices } from './operation-context.js';

/** Where a named record sits: the task it belongs to, else its project, else its workspace. */
export interface ReachedRecord {
  taskId?: number;
  projectId?: number;
  workspaceId?: number;
}

/** Finds the record a field names (undefined: there is none), as the operation's handler would. */
export type RecordResolver = (services: OperationServices, value: number | string) => ReachedRecord | undefined;

/** The records the host knows by kind; a feature names its own with a resolver. */
export type RecordKind = 'task' | 'execution' | 'project' | 'workspace' | 'label';

/**
 * `{ names: {} }`: the operation names no record; what it answers is the caller's own, or a list a
 * task-bound caller sees narrowed to its project (its project scope, `taskProjectScope`).
 */
export interface OperationReach {
  /** Input fields that name a record (by id or name), each with its kind or the resolver of its record. */
  names?: Readonly<Record<string, RecordKind | RecordResolver>>;
  /**
   * `refused`: a task-bound caller may not call it at all — it changes what lies beyond one project
   * (workspaces, projects, product groups, worktree collection) or speaks for a gateway.
   */
  taskCaller?: 'refused';
}
