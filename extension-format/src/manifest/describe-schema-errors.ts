import type { ErrorObject } from 'ajv';

export interface SchemaErrorEntry {
  /** JSON Pointer of the offending value; a missing or extra property is named in the path. */
  path: string;
  message: string;
}

/** ajv errors as `{ path, message }`, pointing at the property a `required` / `additionalProperties` error is about. */
export function describeSchemaErrors(errors: ErrorObject[] | null | undefined): SchemaErrorEntry[] {
  return (errors ?? []).map((error) => {
    const params = error.params as { missingProperty?: string; additionalProperty?: string };
    const property = params.missingProperty ?? params.additionalProperty;
    const pointer = property?.replace(/~/g, '~0').replace(/\//g, '~1');
    return {
      path: pointer === undefined ? error.instancePath || '/' : `${error.instancePath}/${pointer}`,
      message: error.message ?? error.keyword,
    };
  });
}

/** The first few errors on one line, for a message a person reads. */
export function summarizeSchemaErrors(entries: SchemaErrorEntry[], limit = 3): string {
  const shown = entries.slice(0, limit).map((entry) => `${entry.path} ${entry.message}`);
  const more = entries.length > limit ? ` (and ${entries.length - limit} more)` : '';
  return `${shown.join('; ')}${more}`;
}
