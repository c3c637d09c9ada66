import { SvcError } from '@svc-org/ai-sdk';

/** For tools with an `action`: the fields that action needs, named when missing. */
export function requireFields<T extends Record<string, unknown>, K extends keyof T & string>(input: T, action: string, fields: readonly K[]): { [P in K]-?: NonNullable<T[P]> } {
  const missing = fields.filter((field) => input[field] === undefined || input[field] === null);
  if (missing.length > 0) {
    throw new SvcError({
      code: 'invalid_request',
      message: `action "${action}" needs ${missing.join(', ')}`,
      details: { fields: missing },
    });
  }
  return input as unknown as { [P in K]-?: NonNullable<T[P]> };
}
