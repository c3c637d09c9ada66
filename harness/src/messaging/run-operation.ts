import type { AnyOperation, OperationContext } from '../../../host/src/operations/index.js';
import { parseInput } from '../../../host/src/platform/errors/index.js';

/** Parses the input at the edge, runs the handler, and checks the answer against the output schema. */
export async function runOperation(operation: AnyOperation, raw: unknown, ctx: OperationContext): Promise<unknown> {
  const input = parseInput(operation.input, raw, `${operation.name} input`);
  const output = await operation.handler(input, ctx);
  return operation.output.parse(output);
}
