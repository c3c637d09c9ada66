import { SvcError } from '@svc-org/ai-sdk';

/** A positive integer id from a path segment or query value. */
export function parseId(value: string | undefined, what: string): number {
  if (value === undefined || !/^[1-9]\d{0,15}$/.test(value)) {
    throw new SvcError({ code: 'invalid_request', message: `${what} must be a positive integer`, details: { field: what } });
  }
  return Number(value);
}
