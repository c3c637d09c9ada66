// The operation layer (declaring, registering and invoking an operation, and the caller policy): what a
// feature needs to declare its operations, without evaluating any declaration.
export { decodeStringInput } from './decode-string-input.js';
export { defineOperation, type AnyOperation, type Operation, type OperationHttpRoute, type OperationMcp, type OperationPlacement } from './define-operation.js';
export type { CliResolvable, OperationCli, OperationCliFlag, OperationCliPrinter } from './operation-cli.js';
export { IdSchema } from './id-schema.js';
export { listOf } from './list-of.js';
export type { OperationCaller, OperationContext, OperationProgress, OperationServices, OperationTerminals, ProjectScope } from './operation-context.js';
export { assertProjectInScope, projectInScope, scopesAllow } from './project-scope.js';
export type { CallerCheck } from './caller-check.js';
export { OperationInvoker, type InvokeOptions, type OperationInvokerOptions, type OperationRemote } from './operation-invoker.js';
export { scopedItems, withinReadScope, type OperationReadScope, type ReadScopeView, type ScopedRow } from './read-scope.js';
export { taskProjectScope, taskReach, type TaskReachOptions } from './caller-reach.js';
export type { ServedOperations } from './operation-mcp.js';
export type { OperationReach, ReachedRecord, RecordKind, RecordResolver } from './operation-reach.js';
export { OperationRegistry } from './operation-registry.js';
export { operationsOf } from './operations-of.js';
export { RefSchema } from './ref-schema.js';
export { GATEWAY_CREDENTIAL_ENV, MCP_PROFILES, parseMcpProfile, type McpProfile } from './mcp-profile.js';
