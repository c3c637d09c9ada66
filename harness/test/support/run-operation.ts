// Runs one operation as an adapter's invoker would (input parsed at the edge, output checked on the
// way out), with a context a test makes: a handler's caller, services and terminals of its choosing.
import type { AnyOperation, OperationContext } from '@svc-org/host/operation-framework';
import { parseInput } from '@svc-org/host/platform/errors';

export async function runOperation(operation: AnyOperation, raw: unknown, ctx: OperationContext): Promise<unknown> {
  const input = parseInput(operation.input, raw, `${operation.name} input`);
  const output = await operation.handler(input, ctx);
  return operation.output.parse(output);
}
