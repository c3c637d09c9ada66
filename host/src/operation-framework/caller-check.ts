import type { AnyOperation } from './define-operation.js';
import type { OperationCaller, OperationServices } from './operation-context.js';

/**
 * A caller policy: runs on the parsed input, before the operation runs here or is forwarded to the
 * service, and throws a coded refusal. Resolving the ids and names the input carries is its own.
 */
export type CallerCheck = (operation: AnyOperation, input: unknown, caller: OperationCaller, services: OperationServices) => void | Promise<void>;
