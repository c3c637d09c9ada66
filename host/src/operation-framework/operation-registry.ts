import type { AnyOperation } from './define-operation.js';

/** The set of operations one process offers, looked up by name; names are unique. */
export class OperationRegistry {
  private readonly byName = new Map<string, AnyOperation>();

  constructor(operations: Iterable<AnyOperation> = []) {
    for (const operation of operations) this.add(operation);
  }

  add(operation: AnyOperation): void {
    if (this.byName.has(operation.name)) throw new Error(`operation ${operation.name} is declared twice`);
    this.byName.set(operation.name, operation);
  }

  get(name: string): AnyOperation | undefined {
    return this.byName.get(name);
  }

  list(): AnyOperation[] {
    return [...this.byName.values()];
  }
}
