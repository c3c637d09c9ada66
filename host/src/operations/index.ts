export { defineOperation, type AnyOperation, type Operation, type OperationHttpRoute, type OperationPlacement } from './define-operation.js';
export type { OperationCaller, OperationContext } from './operation-context.js';
export { OperationRegistry } from './operation-registry.js';
