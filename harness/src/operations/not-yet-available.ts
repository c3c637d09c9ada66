import { SvcError } from '@svc-org/ai-sdk';
import type { AnyOperation } from '../../../host/src/operations/index.js';

const PENDING = Symbol('svc.pendingCapability');

/**
 * The handler of a tool whose schema is declared (so clients and profiles see it) but whose
 * behaviour a later capability brings: a coded `not_implemented` that names that capability.
 */
export function notYetAvailable(tool: string, capability: string): () => never {
  const handler = () => {
    throw new SvcError({
      code: 'not_implemented',
      message: `${tool} is not available yet: it arrives with ${capability}`,
      details: { tool, capability },
    });
  };
  return Object.assign(handler, { [PENDING]: capability });
}

/** The capability that will bring this operation, when it is only declared so far. */
export function pendingCapability(operation: AnyOperation): string | undefined {
  return (operation.handler as { [PENDING]?: string })[PENDING];
}
