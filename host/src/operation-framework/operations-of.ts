import type { AnyOperation } from './define-operation.js';

const isOperation = (value: unknown): value is AnyOperation =>
  typeof value === 'object' && value !== null && typeof (value as AnyOperation).handler === 'function' && typeof (value as AnyOperation).name === 'string';

/**
 * Every operation the given modules export (a feature's `index.ts`, read as a namespace): module by
 * module, each module's by name, so the order (MCP's tools/list, docs/mcp-tools.md) is the same
 * whichever loader evaluated them. A feature contributes an operation by exporting it: there is no
 * list to add it to.
 */
export function operationsOf(...modules: readonly object[]): AnyOperation[] {
  const byName = (a: AnyOperation, b: AnyOperation) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return [...new Set(modules.flatMap((module) => Object.values(module).filter(isOperation).sort(byName)))];
}
