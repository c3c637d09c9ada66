// Who a `svc mcp` process speaks for, decided from credentials and the service's own configuration,
// never from a value a model could type: a task terminal proves its task with its execution's
// credential, a gateway plugin proves itself with its gateway's credential, and a gateway's caller
// reads only the projects of the channel it serves (gateways and channels are the plugin's to know:
// `mcpCallers` in host-plugin.ts).
import { SvcError } from '@svc-org/ai-sdk';
import type { HostServices } from '../../host-services.js';
import { scopesAllow, taskProjectScope, type McpProfile, type OperationCaller, type ProjectScope } from '../../operation-framework/index.js';
import { verifyTaskCredential } from '../../features/terminals/index.js';

export interface McpClaims {
  /** `SVC_TASK_ID`: a claim, believed only with a matching credential. */
  taskId?: number;
  /** `SVC_TASK_CREDENTIAL`: minted for the terminal's execution. */
  taskCredential?: string;
  /** `SVC_GATEWAY_CREDENTIAL`: issued to a gateway's plugin by a person. */
  gatewayCredential?: string;
  /** `SVC_CHANNEL`: the channel a gateway-side session serves (its scope bounds what it reads). */
  channel?: string;
}

/** Profiles whose callers sit on a gateway's side: their project reads follow a channel's scope. */
const GATEWAY_SIDE: readonly McpProfile[] = ['gateway', 'gateway-query'];

/** Fills in `caller` from the claims, or throws a coded refusal (every tool call then answers with it). */
export function authenticateMcpCaller(services: HostServices, profile: McpProfile, claims: McpClaims, caller: OperationCaller): void {
  if (claims.taskId !== undefined || claims.taskCredential !== undefined) {
    const task = verifyTaskCredential(services.db, claims.taskCredential, claims.taskId);
    caller.taskId = task.taskId;
  }
  if (claims.gatewayCredential !== undefined) {
    caller.gatewayId = services.plugins.mcpCallers().verifyGatewayCredential(services, claims.gatewayCredential).gatewayId;
  }
  if (GATEWAY_SIDE.includes(profile) || claims.channel !== undefined) caller.projectScopes = scopesOf(services, claims.channel, caller.gatewayId);
  // A task's credential or task token lists and searches its own project only (within a channel's scope, if any).
  if (caller.taskId !== undefined) {
    const channelScopes = caller.projectScopes;
    caller.projectScopes = taskProjectScope(services, caller.taskId).filter(
      (scope) => channelScopes === undefined || scopesAllow(channelScopes, { id: scope.projectId!, workspaceId: scope.workspaceId! }),
    );
  }
}

function scopesOf(services: HostServices, channelName: string | undefined, gatewayId: number | undefined): ProjectScope[] {
  const channels = services.plugins.mcpCallers().activeChannels(services);
  if (channelName !== undefined) {
    const channel = channels.find((candidate) => candidate.name === channelName && (gatewayId === undefined || candidate.gatewayId === gatewayId));
    if (!channel) {
      throw new SvcError({
        code: 'channel_not_found',
        message: `SVC_CHANNEL="${channelName}" is not an active channel${gatewayId !== undefined ? ' of this gateway' : ''}`,
        details: { fix: 'svc channel list shows the channels' },
      });
    }
    return [channel.scope];
  }
  // The gateway plugin serves every channel of its gateway; a session with neither reads no project.
  return gatewayId === undefined ? [] : channels.filter((channel) => channel.gatewayId === gatewayId).map((channel) => channel.scope);
}
