import { z } from 'zod';
import { assertProjectInScope, projectInScope, type OperationContext } from '../../operation-framework/index.js';

export const DailyScopeFields = {
  workspaceId: z.number().int().positive().optional(),
  projectId: z.number().int().positive().optional(),
};

export const TaskBriefSchema = z.object({ id: z.number(), projectId: z.number(), title: z.string(), status: z.string(), updatedAt: z.string() });
export type TaskBrief = z.infer<typeof TaskBriefSchema>;

/** The project ids a daily report covers (one project, one workspace, or everything). */
export function dailyScope(input: { workspaceId?: number; projectId?: number }, ctx: OperationContext): number[] {
  const { domain } = ctx.services;
  if (input.projectId !== undefined) {
    assertProjectInScope(ctx, input.projectId);
    return [domain.projects.get(input.projectId).id];
  }
  // A channel-scoped caller's report covers only the projects its channel may read.
  const projects = input.workspaceId !== undefined ? domain.projects.list({ workspaceId: domain.workspaces.get(input.workspaceId).id }) : domain.projects.list();
  return projects.filter((project) => projectInScope(ctx, project)).map((p) => p.id);
}

export function placeholders(values: readonly unknown[]): string {
  return values.length === 0 ? 'NULL' : values.map(() => '?').join(',');
}

export function toTaskBrief(row: { id: number; project_id: number; title: string; status: string; updated_at: string }): TaskBrief {
  return { id: row.id, projectId: row.project_id, title: row.title, status: row.status, updatedAt: row.updated_at };
}
