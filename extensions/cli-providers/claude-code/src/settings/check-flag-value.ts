import { SvcError } from '@svc-org/ai-sdk';

/** A flag's value from a request must not be read by the CLI as another flag. */
export function checkFlagValue(value: string, name: string): string {
  if (value.length === 0 || value.startsWith('-')) {
    throw new SvcError({ code: 'invalid_request', message: `${name} must be non-empty and must not start with "-"` });
  }
  return value;
}
