// The permission names a manifest may request, and what each lets a provider do. The host shows
// these texts when it asks the user to confirm; nothing outside this list can be granted.
export const PERMISSIONS = {
  'process:spawn': 'start the CLI and other programs as child processes (argument arrays, never a shell)',
  'network:provider': "let the CLI it starts talk to its model provider's network service",
  'config:provider': "read this provider's connection settings, including values marked sensitive",
  'integration:mcp': "add and remove MCP server entries in the CLI's own configuration",
  'integration:hooks': "add and remove hook commands in the CLI's own configuration",
  'integration:skills': "add and remove skills in the CLI's own skills folder",
} as const;

export type Permission = keyof typeof PERMISSIONS;

export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

export function isPermission(name: string): name is Permission {
  return Object.prototype.hasOwnProperty.call(PERMISSIONS, name);
}
