import { SvcError } from '@svc-org/ai-sdk';
import type { OperationContext } from '../../../host/src/operations/index.js';
import type { RoutingStores } from './routing-stores.js';

/**
 * The gateway tools a Workbench calls from its own terminal (profile `task`) act for one project:
 * a task terminal may use them only as that project's Workbench, or as the parent of the task they
 * complete. Callers outside a task terminal (the gateway's `svc mcp`, the CLI, the internal routes)
 * are checked by the tools' own sender and state rules.
 */
export function assertWorkbenchCaller(ctx: OperationContext, stores: RoutingStores, scope: { projectId: number; parentTaskId?: number | null }, what: string): void {
  const caller = ctx.caller.taskId;
  if (caller === undefined) return;
  if (stores.workbench.workbenchOf(scope.projectId) === caller) return;
  if (scope.parentTaskId != null && scope.parentTaskId === caller) return;
  throw new SvcError({
    code: 'not_the_workbench',
    message: `${what} is for the Workbench of project ${scope.projectId}; task ${caller} is not it`,
    details: { taskId: caller, projectId: scope.projectId },
  });
}
