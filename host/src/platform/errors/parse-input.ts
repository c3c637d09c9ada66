import { SvcError } from '@svc-org/ai-sdk';
import type { z } from 'zod';

/** Parses `value` or throws `invalid_request` naming each field and rule (never the value). */
export function parseInput<T extends z.ZodTypeAny>(schema: T, value: unknown, what: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
  throw new SvcError({ code: 'invalid_request', message: `invalid ${what}: ${problems.join('; ')}`, details: { problems } });
}
