import { SvcError } from '@svc-org/ai-sdk';
import type { z } from 'zod';
import { parseInput } from '../platform/errors/index.js';
import type { CallerCheck } from './caller-check.js';
import type { AnyOperation } from './define-operation.js';
import type { OperationCaller, OperationProgress, OperationServices, OperationTerminals } from './operation-context.js';
import type { OperationRegistry } from './operation-registry.js';
import { withinReadScope } from './read-scope.js';


/** Whatever can run an operation inside the running service (the localhost bridge client). */
export interface OperationRemote {
  invoke(name: string, input: unknown, signal?: AbortSignal): Promise<unknown>;
}

export interface OperationInvokerOptions {
  registry: OperationRegistry;
  /** Opened on first use: a command that only forwards never opens the database. */
  services: () => Promise<OperationServices>;
  /** Present inside `svc serve` only. */
  terminals?: OperationTerminals;
  caller: OperationCaller;
  /** Reaches the running service; throws `server_not_running` when it is down. */
  remote?: () => OperationRemote;
  /** Caller policies, in order, for every operation this invoker runs or forwards (they open the database). */
  checks?: readonly CallerCheck[];
  /** Every operation the process serves, when the registry holds only what this caller may call (an MCP profile's tools). */
  served?: OperationRegistry;
}

/** How one call is answered. */
export interface InvokeOptions {
  /**
   * false: the answer of a handler run in this process is returned as the handler built it, not
   * passed through the output schema, for a caller that prints it with the declaration's own text
   * renderer (the CLI's table reads the fields it names). An answer from the service is still checked.
   */
  checkOutput?: boolean;
}

/**
 * The one way every adapter runs an operation: input parsed at the edge, then run here when this
 * process can (the database is everywhere; live terminals only in the service), else forwarded to
 * the service over the localhost bridge. The output passes its schema on the way out, so a field a
 * presenter did not put there never leaves.
 */
export class OperationInvoker {
  /** The services once opened: a later operation runs without waiting a turn for them. */
  private opened: OperationServices | undefined;

  constructor(private readonly options: OperationInvokerOptions) {}

  get registry(): OperationRegistry {
    return this.options.registry;
  }

  async invoke<O extends AnyOperation>(
    operation: O | string,
    input: unknown,
    signal: AbortSignal = new AbortController().signal,
    progress?: OperationProgress,
    options: InvokeOptions = {},
  ): Promise<z.output<O['output']>> {
    const op = typeof operation === 'string' ? this.options.registry.get(operation) : operation;
    if (!op) throw new SvcError({ code: 'operation_not_found', message: `no operation named "${String(operation)}"` });
    input = withCallerTask(op, input ?? {}, this.options.caller);
    const parsed = parseInput(op.input, input, `${op.name} input`);
    const checks = this.options.checks ?? [];
    if (checks.length > 0) {
      const services = await this.options.services();
      for (const check of checks) await check(op, parsed, this.options.caller, services);
    }
    const call = () => this.run(op, input, parsed, signal, progress, options.checkOutput !== false);
    const { projectScopes, taskId } = this.options.caller;
    if (projectScopes === undefined || op.readScope === undefined) return call() as Promise<z.output<O['output']>>;
    // A channel-scoped caller reads within its channels' projects, checked on the parsed input (a
    // project's name resolved to its record, not a string a check would skip). A task-bound caller's
    // named records are checked by its reach (caller-reach.ts): for it the scope only narrows the answer.
    const named = taskId === undefined ? parsed : {};
    return withinReadScope(op.readScope, named, projectScopes, await this.options.services(), call) as Promise<z.output<O['output']>>;
  }

  private async run(op: AnyOperation, input: unknown, parsed: unknown, signal: AbortSignal, progress: OperationProgress | undefined, checkOutput: boolean): Promise<unknown> {
    if (op.runsIn === 'service' && !this.options.terminals) {
      if (!this.options.remote) {
        throw new SvcError({ code: 'server_not_running', message: `${op.name} runs in the service`, details: { fix: 'start it with `svc serve`' } });
      }
      return op.output.parse(await this.options.remote().invoke(op.name, input ?? {}, signal));
    }
    if (op.runsIn === 'service_if_running' && !this.options.terminals && this.options.remote) {
      const forwarded = await this.forward(op, input, signal);
      if (forwarded.ran) return forwarded.output;
    }
    const services = this.opened ?? (this.opened = await this.options.services());
    // A handler that answers at once is not waited for a turn.
    const answered = op.handler(parsed, { services, ...(this.options.terminals ? { terminals: this.options.terminals } : {}), caller: this.options.caller, signal, served: this.options.served ?? this.options.registry, ...(progress ? { progress } : {}) });
    const result = isPromiseLike(answered) ? await answered : answered;
    return checkOutput ? op.output.parse(result) : result;
  }

  /** Runs the operation in the service when one is running; `ran: false` when none is. */
  private async forward(op: AnyOperation, input: unknown, signal: AbortSignal): Promise<{ ran: true; output: unknown } | { ran: false }> {
    let remote: OperationRemote;
    try {
      remote = this.options.remote!();
    } catch (error) {
      if (SvcError.hasCode(error) && error.code === 'server_not_running') return { ran: false };
      throw error;
    }
    try {
      return { ran: true, output: op.output.parse(await remote.invoke(op.name, input ?? {}, signal)) };
    } catch (error) {
      if (SvcError.hasCode(error) && error.code === 'server_not_running') return { ran: false };
      throw error;
    }
  }
}

/** The caller's task in the field the operation names for it (see `callerTaskField`). */
function withCallerTask(op: AnyOperation, input: unknown, caller: OperationCaller): unknown {
  const field = op.callerTaskField;
  if (!field || caller.taskId === undefined || input === null || typeof input !== 'object' || Array.isArray(input)) return input;
  const given = (input as Record<string, unknown>)[field];
  if (given === undefined) return { ...input, [field]: caller.taskId };
  if (Number(given) !== caller.taskId) {
    throw new SvcError({
      code: 'task_mismatch',
      message: `this terminal belongs to task ${caller.taskId}; it cannot speak for task ${String(given)}`,
      details: { callerTaskId: caller.taskId, taskId: given },
    });
  }
  return input;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}
