import { UsageError } from './usage-error.js';

/** An id typed on the command line. */
export function positiveId(value: string, what: string): number {
  if (!/^[1-9]\d{0,15}$/.test(value)) throw new UsageError(`${what} must be an id (a positive number), got "${value}"`);
  return Number(value);
}
