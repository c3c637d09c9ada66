// Which input fields of an operation name a record, read from its declaration: the tests that call
// every operation of a kind (the gateway read scope, the CLI's JSON against the route's) build each
// call from it instead of keeping a case per operation.
import type { AnyOperation } from '@svc-org/host/operation-framework';

/**
 * The kind of record an input field names: what `reach` declares for it; else an operation's `id`
 * names a record of its own group (`get_label`'s a label), and `<kind>Id` or `<kind>` one of that kind.
 */
export function recordKindOf(operation: AnyOperation, field: string): string {
  const declared = operation.reach?.names?.[field];
  return typeof declared === 'string' ? declared : field === 'id' ? operation.group : field.replace(/Id$/, '');
}

/** Whether a field may be left out of the input. */
export const isOptional = (schema: { safeParse(value: unknown): { success: boolean } }) => schema.safeParse(undefined).success;
