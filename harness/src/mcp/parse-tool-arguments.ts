import { SvcError } from '@svc-org/ai-sdk';
import type { z } from 'zod';

/**
 * Checks a tool call's arguments against the tool's zod input. A mismatch is `invalid_arguments`
 * naming every field and rule (never the value), so the agent can correct the call.
 */
export function parseToolArguments(tool: string, schema: z.ZodType, args: unknown): unknown {
  const parsed = schema.safeParse(args ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const keys = 'keys' in issue && Array.isArray(issue.keys) ? ` (${issue.keys.join(', ')})` : '';
    return `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}${keys}`;
  });
  throw new SvcError({
    code: 'invalid_arguments',
    message: `invalid arguments for ${tool}: ${problems.join('; ')}`,
    details: { fields: parsed.error.issues.map((issue) => issue.path.join('.')), problems },
  });
}
