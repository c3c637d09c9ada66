import { SvcError } from '@svc-org/ai-sdk';
import type { OperationContext, RecordResolver } from '@svc-org/host/operation-framework';
import { routingStores, type RoutingStores } from './routing-stores.js';

/** A gateway request (inbound) belongs to the project it was routed to; an unrouted one to none. */
export const GATEWAY_INBOUND_RECORD: RecordResolver = (services, id) => {
  const projectId = routingStores(services).inbound.get(Number(id)).projectId;
  return projectId === null ? undefined : { projectId };
};

/**
 * The gateway tools a Workbench calls from its own terminal (profile `task`) act for one project:
 * a task terminal may use them only as that project's Workbench, or as the parent of the task they
 * complete. Over MCP nothing else may call them (a gateway's session or a query bridge would answer
 * in the Workbench's place); the CLI and the internal routes are the person's and the service's own.
 */
export function assertWorkbenchCaller(ctx: OperationContext, stores: RoutingStores, scope: { projectId: number; parentTaskId?: number | null }, what: string): void {
  const caller = ctx.caller.taskId;
  if (caller === undefined) {
    if (ctx.caller.via !== 'mcp') return;
    throw new SvcError({
      code: 'workbench_caller_required',
      message: `${what} is for the Workbench of project ${scope.projectId}, called from its own task terminal`,
      details: { projectId: scope.projectId, fix: 'the Workbench calls it through the svc MCP server of its task terminal' },
    });
  }
  if (stores.workbench.workbenchOf(scope.projectId) === caller) return;
  if (scope.parentTaskId != null && scope.parentTaskId === caller) return;
  throw new SvcError({
    code: 'not_the_workbench',
    message: `${what} is for the Workbench of project ${scope.projectId}; task ${caller} is not it`,
    details: { taskId: caller, projectId: scope.projectId },
  });
}
