// What `svc mcp` serves, loaded just after it answers tools/list: the one registry's operations and
// the plugins its host is opened with.
import type { McpComposition } from '@svc-org/host/adapters/mcp';

export async function composeMcp(): Promise<McpComposition> {
  const [{ ALL_OPERATIONS }, { HOST_PLUGINS }] = await Promise.all([import('./all-operations.js'), import('./host-plugins.js')]);
  return { operations: ALL_OPERATIONS.list(), plugins: HOST_PLUGINS };
}
