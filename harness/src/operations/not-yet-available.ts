import { SvcError } from '@svc-org/ai-sdk';

/**
 * The handler of a tool whose schema is declared (so clients and profiles see it) but whose
 * behaviour a later capability brings: a coded `not_implemented` that names that capability.
 */
export function notYetAvailable(tool: string, capability: string): () => never {
  return () => {
    throw new SvcError({
      code: 'not_implemented',
      message: `${tool} is not available yet: it arrives with ${capability}`,
      details: { tool, capability },
    });
  };
}
