// What a channel-scoped caller (the gateway-side MCP profiles) may read: only the workspaces,
// projects, tasks and their records of the projects its channels are scoped to. Each read such a
// caller can reach says in its declaration (`readScope`) how its input or its answer names a project;
// the invoker runs that rule on the parsed input, for every face alike. A record outside the scope is
// refused with `project_out_of_scope`, said the same whether it exists or not; a list keeps only
// what is in scope.
import { SvcError } from '@svc-org/ai-sdk';
import type { OperationServices, ProjectScope } from './operation-context.js';
import { scopesAllow } from './project-scope.js';

export type ScopedRow = Record<string, unknown>;

/** The caller's scope, as a declaration's rule reads it. */
export interface ReadScopeView {
  /** A project the input or the answer names, by id or name: refused unless it resolves to one in scope. */
  project(ref: unknown): void;
  /** A task by id: refused unless its project is in scope. */
  task(taskId: unknown): void;
  /** A workspace by id or name: refused unless a project of it (or the whole workspace) is in scope. */
  workspace(ref: unknown): void;
  visibleProject(projectId: unknown): boolean;
  taskVisible(taskId: number): boolean;
  workspaceVisible(workspaceId: number): boolean;
}

/**
 * How a read keeps a channel-scoped caller within its scope: `before` checks the parsed input,
 * `after` checks or narrows the answer; `inHandler` says why the handler itself keeps to the scope
 * (it filters with `projectInScope`, or reads no project record).
 */
export type OperationReadScope =
  | { before?: (input: ScopedRow, scope: ReadScopeView) => void; after?: (output: ScopedRow, scope: ReadScopeView) => ScopedRow }
  | { inHandler: string };

/** The answer's `items`, those kept. */
export const scopedItems = (output: ScopedRow, keep: (item: ScopedRow) => boolean): ScopedRow => ({ ...output, items: (output.items as ScopedRow[]).filter(keep) });

/** The caller's channel scopes over the service's records, read once per call. */
class Scope implements ReadScopeView {
  /** The projects the scopes cover, and the workspaces holding one of them. */
  private readonly projects: ReadonlySet<number>;
  private readonly workspaces: ReadonlySet<number>;
  private readonly taskProjects = new Map<number, number | undefined>();

  constructor(
    private readonly scopes: readonly ProjectScope[],
    private readonly services: OperationServices,
  ) {
    const visible = services.domain.projects.list().filter((project) => scopesAllow(scopes, project));
    this.projects = new Set(visible.map((project) => project.id));
    this.workspaces = new Set(visible.map((project) => project.workspaceId));
  }

  workspaceVisible(workspaceId: number): boolean {
    // A workspace is seen through a project of it, or whole (a scope naming it, or every workspace).
    return this.workspaces.has(workspaceId) || this.scopes.some((s) => s.projectId === null && (s.workspaceId === null || s.workspaceId === workspaceId));
  }

  taskVisible(taskId: number): boolean {
    if (!this.taskProjects.has(taskId)) this.taskProjects.set(taskId, this.services.domain.tasks.find(taskId)?.projectId);
    const projectId = this.taskProjects.get(taskId);
    return projectId !== undefined && this.projects.has(projectId);
  }

  /** A name that resolves to nothing, or to several, is refused alike. Left out: nothing to check. */
  project(ref: unknown): void {
    if (ref === undefined) return;
    const id = resolved(ref, (value) => this.services.domain.projects.resolve(value).id);
    if (id === undefined || !this.projects.has(id)) throw outOfScope(`project ${String(ref)}`);
  }

  task(taskId: unknown): void {
    if (taskId === undefined) return;
    if (typeof taskId !== 'number' || !this.taskVisible(taskId)) throw outOfScope(`task ${String(taskId)}`);
  }

  workspace(ref: unknown): void {
    if (ref === undefined) return;
    const id = resolved(ref, (value) => this.services.domain.workspaces.resolve(value).id);
    if (id === undefined || !this.workspaceVisible(id)) throw outOfScope(`workspace ${String(ref)}`);
  }

  visibleProject(projectId: unknown): boolean {
    return typeof projectId === 'number' && this.projects.has(projectId);
  }
}

/** The id a reference (an id, or a name) resolves to; undefined when it names no single record. */
function resolved(ref: unknown, resolve: (ref: string | number) => number): number | undefined {
  if (typeof ref !== 'number' && typeof ref !== 'string') return undefined;
  try {
    return resolve(ref);
  } catch (error) {
    if (SvcError.isInstance(error)) return undefined;
    throw error;
  }
}

function outOfScope(what: string): SvcError {
  return new SvcError({
    code: 'project_out_of_scope',
    message: `${what} is outside the scope of the channel this caller serves`,
    details: { fix: 'a gateway caller reads only the projects its channel is scoped to (svc channel add … --project/--workspace)' },
  });
}

/** Codes a handler throws for a record that does not exist: a scoped caller hears `project_out_of_scope` instead. */
const NOT_FOUND = /_not_found$/;

/**
 * Runs one call of a channel-scoped caller within its scope: the declaration's rule on the parsed
 * input (`named`: what the rule may read of it) and on the answer. A read without a rule, or whose
 * handler keeps to the scope, runs as it is.
 */
export async function withinReadScope(rule: OperationReadScope | undefined, named: unknown, scopes: readonly ProjectScope[], services: OperationServices, call: () => Promise<unknown>): Promise<unknown> {
  if (rule === undefined || 'inHandler' in rule) return call();
  const scope = new Scope(scopes, services);
  rule.before?.((named ?? {}) as ScopedRow, scope);
  let output: unknown;
  try {
    output = await call();
  } catch (error) {
    if (SvcError.isInstance(error) && NOT_FOUND.test(error.code)) throw outOfScope('what was asked for');
    throw error;
  }
  return rule.after ? rule.after(output as ScopedRow, scope) : output;
}
