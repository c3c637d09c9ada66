import { SvcError } from '@svc-org/ai-sdk';
import type { OperationContext, ProjectScope } from './operation-context.js';

/** Whether the caller's channel scopes let it read this project (always, for a caller with none). */
export function projectInScope(ctx: Pick<OperationContext, 'caller'>, project: { id: number; workspaceId: number }): boolean {
  const scopes = ctx.caller.projectScopes;
  return scopes === undefined || scopesAllow(scopes, project);
}

/** Whether any of these channel scopes covers the project. */
export function scopesAllow(scopes: readonly ProjectScope[], project: { id: number; workspaceId: number }): boolean {
  return scopes.some(
    (scope) => (scope.projectId === null || scope.projectId === project.id) && (scope.workspaceId === null || scope.workspaceId === project.workspaceId),
  );
}

/** The project, when the caller may read it; `project_out_of_scope` otherwise (said the same whether it exists or not). */
export function assertProjectInScope(ctx: OperationContext, projectId: number): void {
  if (ctx.caller.projectScopes === undefined) return;
  const project = ctx.services.domain.projects.list().find((candidate) => candidate.id === projectId);
  if (project && projectInScope(ctx, project)) return;
  throw new SvcError({
    code: 'project_out_of_scope',
    message: `project ${projectId} is outside the scope of the channel this caller serves`,
    details: { projectId, fix: 'a gateway caller reads only the projects its channel is scoped to (svc channel add … --project/--workspace)' },
  });
}
