import { SvcError } from '@svc-org/ai-sdk';
import type { z } from 'zod';
import type { HostServices } from '../../host-services.js';
import {
  GATEWAY_CREDENTIAL_ENV,
  OperationInvoker,
  taskReach,
  type AnyOperation,
  type McpProfile,
  type OperationCaller,
  type OperationInvokerOptions,
  type OperationProgress,
} from '../../operation-framework/index.js';

export interface McpCallerInvokerOptions extends OperationInvokerOptions {
  profile: McpProfile;
  /** Settles who the caller is before its first call runs (and refuses every call when it cannot). */
  authenticate: () => Promise<HostServices>;
  /** Tools this profile serves only for a named chat sender (checked after the credential rules). */
  needsSender?: (tool: string) => boolean;
}

/**
 * The invoker of `svc mcp`: the caller is authenticated before any tool runs, and two things only a
 * credential allows are checked here, for every tool alike: saying who sent a platform message
 * (a tool whose input names a `senderId`), and writing through the `gateway` profile; a
 * channel-scoped caller's reads stay within its channel's projects (each read's `readScope`, run by
 * the invoker); a
 * task-bound caller reaches only its own task, the tasks below it and its project (caller-reach.ts,
 * on the parsed input, for every tool alike).
 */
export class McpCallerInvoker extends OperationInvoker {
  /** The chat-sender rule is checked here, after the credential rules. */
  readonly checksSender = true;
  /** For a caller bound to no task and scoped to no channel: neither policy above has anything to check. */
  private readonly unrestricted: OperationInvoker;
  /** The services once the caller is authenticated: later calls do not wait a turn for it. */
  private authenticated: HostServices | undefined;

  constructor(private readonly mcp: McpCallerInvokerOptions) {
    super({
      ...mcp,
      checks: [taskReach({ coordinatesProject: (services, taskId) => services.ports.isWorkbench(taskId) }), ...(mcp.checks ?? [])],
    });
    this.unrestricted = new OperationInvoker(mcp);
  }

  // Not async: once the caller is authenticated, a call goes straight on to the invoker that runs it.
  override invoke<O extends AnyOperation>(operation: O | string, input: unknown, signal?: AbortSignal, progress?: OperationProgress): Promise<z.output<O['output']>> {
    const services = this.authenticated;
    if (services === undefined) {
      return this.mcp.authenticate().then((value) => {
        this.authenticated = value;
        return this.invoke(operation, input, signal, progress);
      });
    }
    const op = typeof operation === 'string' ? this.registry.get(operation) : operation;
    try {
      if (op) {
        assertCallerMay(op, input, this.mcp.caller, this.mcp.profile, services);
        if (this.mcp.needsSender?.(op.name) && typeof (input as { senderId?: unknown } | null)?.senderId !== 'string') {
          throw new SvcError({ code: 'owner_required', message: `${op.name} through this profile serves only the owner of a chat: give platform, chatId and senderId` });
        }
      }
    } catch (error) {
      return Promise.reject(error);
    }
    const { taskId, projectScopes } = this.mcp.caller;
    if (taskId === undefined && projectScopes === undefined) return this.unrestricted.invoke(operation, input, signal, progress);
    return super.invoke(operation, input, signal, progress);
  }
}

function assertCallerMay(op: AnyOperation, input: unknown, caller: OperationCaller, profile: McpProfile, services: HostServices): void {
  // A call that names a platform sender asserts who sent a message: only a gateway's plugin may.
  const senderId = (input as { senderId?: unknown } | null)?.senderId;
  const shape = (op.input as { shape?: Record<string, unknown> }).shape;
  if (shape && 'senderId' in shape && senderId !== undefined) {
    if (caller.gatewayId === undefined) {
      throw new SvcError({
        code: 'gateway_credential_required',
        message: `${op.name} says who sent a platform message; only a gateway's plugin may (it passes ${GATEWAY_CREDENTIAL_ENV})`,
        details: { tool: op.name, fix: 'issue one with `svc gateway credential <gateway>` and set it in the plugin\'s env setting' },
      });
    }
    const platform = (input as { platform?: unknown } | null)?.platform;
    const served = services.plugins.mcpCallers().activeChannels(services).some((channel) => channel.gatewayId === caller.gatewayId && channel.platform === platform);
    if (!served) {
      throw new SvcError({
        code: 'chat_not_authorized',
        message: `${op.name}: this gateway has no active channel on ${String(platform)}`,
        details: { tool: op.name, fix: 'add a channel for this platform through this gateway (svc channel add … --gateway <name>)' },
      });
    }
  }
  if (profile === 'gateway' && !op.readOnly && caller.gatewayId === undefined) {
    throw new SvcError({
      code: 'gateway_credential_required',
      message: `${op.name} changes state; without ${GATEWAY_CREDENTIAL_ENV} the gateway profile is read-only`,
      details: { tool: op.name, fix: "a gateway's own agent gets the read-only tools; the gateway plugin passes the credential" },
    });
  }
}
