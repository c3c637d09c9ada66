/**
 * A schema built at its first use and kept: the module that declares it constructs nothing at load,
 * so a command that never parses it (`svc task list` creates and updates nothing) never builds it.
 * Call the result for the one instance; `.extend()`, `.pick()` and the inferred types work on it as
 * on the schema itself (`taskCreateSchema().extend({ … })`).
 */
export function builtOnFirstUse<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}
