// One user-facing operation, declared once. The CLI, the koa routes, the service client, the MCP
// server and the web UI are adapters over these declarations; none keeps a copy of its own.
import type { z } from 'zod';
import type { OperationCli } from './operation-cli.js';
import type { OperationReach } from './operation-reach.js';
import type { OperationContext } from './operation-context.js';
import type { OperationMcp } from './operation-mcp.js';
import type { OperationReadScope } from './read-scope.js';

/**
 * Where an operation may run: anywhere the database is, only inside `svc serve` (live PTYs), or in
 * the service when it is running and here otherwise (`service_if_running`: it may end a live
 * terminal, which only the service can, and needs none when the service is down).
 */
export type OperationPlacement = 'any' | 'service' | 'service_if_running';

/** How the HTTP adapter mounts an operation. `:name` segments are merged into the input. */
export interface OperationHttpRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** Status of a successful answer (default 200; 204 sends no body). */
  status?: number;
  /**
   * The request names ids and versions only: a URL or a path anywhere in its query, parameters or
   * body is refused with its own code before the input is validated (catalog operations).
   */
  refuseLocations?: boolean;
}

export type { OperationMcp } from './operation-mcp.js';

/**
 * `H` is the route as declared, literal path included, so a client can be typed from it (the web
 * UI's request helper refuses a path or a body the declaration does not accept).
 */
export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType, H extends OperationHttpRoute | undefined = OperationHttpRoute | undefined> {
  /** snake_case; the MCP tool name (docs/mcp-tools.md). */
  name: string;
  /** The capability group (MCP tool group, CLI command group, docs section). */
  group: string;
  /** One line an agent or a person can act on. */
  description: string;
  /** Reads only: no row, file, process or terminal changes. MCP `readOnlyHint`. */
  readOnly: boolean;
  /** May destroy or overwrite what a person made. MCP `destructiveHint`. */
  destructive?: boolean;
  /** Calling it twice with the same input has no further effect. MCP `idempotentHint`. */
  idempotent?: boolean;
  runsIn: OperationPlacement;
  input: I;
  output: O;
  http?: H;
  /** Its CLI command (operation-cli.ts); left out: no command is derived from it (one may be written by hand). */
  cli?: OperationCli<z.output<O>>;
  /**
   * Its MCP tool (see OperationMcp); `false`: it is none (a person's own door, a hook's, the service's
   * timer's, or an internal route's). Left out: a tool of the profiles its group's surface places it in.
   */
  mcp?: OperationMcp | false;
  /**
   * An input field that names the caller's own task: filled from the caller's task (a task
   * terminal's `svc mcp`) when left out, refused when it names another, before the operation runs
   * here or is forwarded to the service.
   */
  callerTaskField?: string;
  /**
   * Which input fields name a task, an execution, a project or another record, checked against what
   * a caller bound to one task may reach (caller-reach.ts); `{ taskCaller: 'refused' }` when such a
   * caller may not call it. Every MCP tool declares it: without it a task-bound caller is refused.
   */
  reach?: OperationReach;
  /**
   * How a read keeps a channel-scoped caller (the gateway-side MCP profiles) within its channel's
   * projects (read-scope.ts). Every read-only tool of those profiles declares it.
   */
  readScope?: OperationReadScope;
  handler(input: z.output<I>, ctx: OperationContext): Promise<z.input<O>> | z.input<O>;
}

const NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** Declares an operation; a bad name or a destructive read is a programming error caught at load. */
export function defineOperation<I extends z.ZodType, O extends z.ZodType, const H extends OperationHttpRoute | undefined = undefined>(operation: Operation<I, O, H>): Operation<I, O, H> {
  if (!NAME.test(operation.name)) throw new Error(`operation name "${operation.name}" must be snake_case`);
  if (operation.readOnly && operation.destructive) throw new Error(`operation ${operation.name} cannot be read-only and destructive`);
  if (operation.mcp && operation.mcp.delegatedRead && !operation.readOnly) throw new Error(`operation ${operation.name} changes svc: it cannot be a delegated read`);
  return operation;
}

// Operations are stored together whatever their schemas; adapters parse input at the edge.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = Operation<any, any>;
