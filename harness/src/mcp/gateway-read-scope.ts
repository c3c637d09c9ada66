// What a channel-scoped caller (the `gateway` and `gateway-query` profiles) may read of the core and
// terminal tools: only the workspaces, projects, tasks, labels, facts, notes, assets, executions, terminals and product
// groups of the projects its channel is scoped to. Each tool below says how its input or its answer
// names a project; a record outside the scope is refused with `project_out_of_scope`, said the same
// whether it exists or not, and a list keeps only what is in scope. Tools that check scope in their
// own handler (projects, knowledge, search, daily reports) are listed in SCOPED_IN_HANDLER.
import { SvcError } from '@svc-org/ai-sdk';
import type { HostServices } from '../../../host/src/host-services.js';
import { scopesAllow, type ProjectScope } from '../../../host/src/operation-framework/index.js';

type Row = Record<string, unknown>;

interface ReadScope {
  /** Checked before the call, on the parsed input: the projects it names (by project, task or execution; by id or name). */
  before?: (input: Row, scope: Scope) => void;
  /** Checked or narrowed after the call: the answer itself. */
  after?: (output: Row, scope: Scope) => Row;
}

/** The caller's channel scopes over the service's records, read once per call. */
class Scope {
  /** The projects the scopes cover, and the workspaces holding one of them. */
  private readonly projects: ReadonlySet<number>;
  private readonly workspaces: ReadonlySet<number>;
  private readonly taskProjects = new Map<number, number | undefined>();

  constructor(
    private readonly scopes: readonly ProjectScope[],
    private readonly services: HostServices,
  ) {
    const visible = services.domain.projects.list().filter((project) => scopesAllow(scopes, project));
    this.projects = new Set(visible.map((project) => project.id));
    this.workspaces = new Set(visible.map((project) => project.workspaceId));
  }

  private projectVisible(projectId: number): boolean {
    return this.projects.has(projectId);
  }

  workspaceVisible(workspaceId: number): boolean {
    // A workspace is seen through a project of it, or whole (a scope naming it, or every workspace).
    return this.workspaces.has(workspaceId) || this.scopes.some((s) => s.projectId === null && (s.workspaceId === null || s.workspaceId === workspaceId));
  }

  taskVisible(taskId: number): boolean {
    if (!this.taskProjects.has(taskId)) this.taskProjects.set(taskId, this.services.domain.tasks.find(taskId)?.projectId);
    const projectId = this.taskProjects.get(taskId);
    return projectId !== undefined && this.projectVisible(projectId);
  }

  /**
   * A project the parsed input names, by id or by name: the record it resolves to must be in scope.
   * A name that resolves to nothing, or to several, is refused alike. Left out: nothing to check.
   */
  project(ref: unknown): void {
    if (ref === undefined) return;
    const id = resolved(ref, (value) => this.services.domain.projects.resolve(value).id);
    if (id === undefined || !this.projectVisible(id)) throw outOfScope(`project ${String(ref)}`);
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
    return typeof projectId === 'number' && this.projectVisible(projectId);
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

const items = (output: Row, keep: (item: Row) => boolean): Row => ({ ...output, items: (output.items as Row[]).filter(keep) });
const groupInScope = (group: Row, scope: Scope): Row => ({ ...group, projectIds: (group.projectIds as number[]).filter((id) => scope.visibleProject(id)) });

/** The core and terminal reads of the gateway profile, and how each names a project. */
export const SCOPED_READS: Readonly<Record<string, ReadScope>> = {
  get_workspace: { after: (output, scope) => (scope.workspace(output.id), output) },
  list_workspaces: { after: (output, scope) => items(output, (item) => scope.workspaceVisible(item.id as number)) },
  get_task: { after: (output, scope) => (scope.project(output.projectId), output) },
  list_tasks: {
    before: (input, scope) => {
      scope.project(input.projectId);
      scope.task(input.parentTaskId);
    },
    after: (output, scope) => items(output, (item) => scope.visibleProject(item.projectId)),
  },
  get_task_defaults: { before: (input, scope) => scope.project(input.projectId) },
  list_task_versions: { before: (input, scope) => scope.task(input.taskId) },
  get_label: { after: (output, scope) => (scope.project(output.projectId), output) },
  list_labels: { before: (input, scope) => scope.project(input.projectId) },
  list_notes: { before: (input, scope) => scope.project(input.projectId) },
  get_note: { after: (output, scope) => (scope.project(output.projectId), output) },
  list_project_facts: { before: (input, scope) => scope.project(input.projectId) },
  list_assets: { before: (input, scope) => scope.project(input.projectId) },
  get_asset: { after: (output, scope) => (scope.project(output.projectId), output) },
  get_execution: { after: (output, scope) => (scope.task(output.taskId), output) },
  list_executions: {
    before: (input, scope) => scope.task(input.taskId),
    after: (output, scope) => items(output, (item) => scope.taskVisible(item.taskId as number)),
  },
  get_task_terminal_output: { before: (input, scope) => scope.task(input.taskId) },
  get_task_terminal_status: { before: (input, scope) => scope.task(input.taskId) },
  list_task_terminals: { after: (output, scope) => items(output, (item) => scope.taskVisible(item.taskId as number)) },
  get_product_group: { after: (output, scope) => (scope.workspace(output.workspaceId), groupInScope(output, scope)) },
  list_product_groups: {
    before: (input, scope) => scope.workspace(input.workspaceId),
    after: (output, scope) => ({ ...output, items: (output.items as Row[]).filter((item) => scope.workspaceVisible(item.workspaceId as number)).map((item) => groupInScope(item, scope)) }),
  },
};

/** Read-only tools of the gateway-side profiles that check the caller's scope in their own handler, or read no project. */
export const SCOPED_IN_HANDLER: Readonly<Record<string, string>> = {
  get_project: 'assertProjectInScope in its handler',
  list_projects: 'filters by projectInScope in its handler',
  ask_project_knowledge: 'assertProjectInScope in its handler',
  identify_project: 'places, searches and names only projects in scope',
  global_search: 'searches only projects in scope',
  daily_summary: 'its report covers only projects in scope (dailyScope)',
  daily_todo: 'its report covers only projects in scope (dailyScope)',
  route_gateway_query: "resolves the project only among the channel's",
  resolve_gateway_task_context: 'answers only for a sender of an authorized chat; the token or reply names the task',
  diagnose_gateway_request: 'OWNER of the chat only, one named request',
  get_gateway_runtime_health: 'gateway health and counts: no project records',
  observe_gateway_maintenance: 'counts of gateway rows: no project records',
};

/** Codes a handler throws for a record that does not exist: a scoped caller hears `project_out_of_scope` instead. */
const NOT_FOUND = /_not_found$/;

/**
 * Runs one read of a channel-scoped caller within its scope (other tools and unscoped callers pass
 * through). `input` is the parsed input (the invoker's policy step): the raw one may spell a field
 * in a way the checks here would not read.
 */
export async function withinScope(tool: string, input: unknown, scopes: readonly ProjectScope[] | undefined, services: HostServices, call: () => Promise<unknown>): Promise<unknown> {
  const rule = SCOPED_READS[tool];
  if (scopes === undefined || rule === undefined) return call();
  const scope = new Scope(scopes, services);
  rule.before?.((input ?? {}) as Row, scope);
  let output: unknown;
  try {
    output = await call();
  } catch (error) {
    if (SvcError.isInstance(error) && NOT_FOUND.test(error.code)) throw outOfScope('what was asked for');
    throw error;
  }
  return rule.after ? rule.after(output as Row, scope) : output;
}
