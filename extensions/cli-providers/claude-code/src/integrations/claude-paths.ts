import { SvcError, type AdapterContext, type IntegrationScope } from '@svc-org/ai-sdk';
import { isAbsolute, join } from 'node:path';

// Where Claude Code keeps what the integrations edit (2.1.197; `claude mcp add -s user|project`
// writes the first two). Paths are absolute: the home comes from the host, never from process.env.

function root(scope: IntegrationScope, ctx: AdapterContext): string {
  if (scope.scope === 'user') return ctx.host.platform.homeDir;
  if (!scope.projectDir || !isAbsolute(scope.projectDir)) {
    throw new SvcError({ code: 'invalid_request', message: 'a project scope needs an absolute projectDir' });
  }
  return scope.projectDir;
}

/** user: ~/.claude.json (top-level mcpServers); project: <dir>/.mcp.json. */
export function mcpConfigPath(scope: IntegrationScope, ctx: AdapterContext): string {
  return join(root(scope, ctx), scope.scope === 'user' ? '.claude.json' : '.mcp.json');
}

/**
 * user: ~/.claude/settings.json; project: <dir>/.claude/settings.local.json — the project file the
 * CLI keeps out of version control, because a hook command is an absolute path on this machine.
 */
export function settingsPath(scope: IntegrationScope, ctx: AdapterContext): string {
  return join(root(scope, ctx), '.claude', scope.scope === 'user' ? 'settings.json' : 'settings.local.json');
}

/** ~/.claude/skills/<name>/SKILL.md or <dir>/.claude/skills/<name>/SKILL.md. */
export function skillPath(scope: IntegrationScope, ctx: AdapterContext, name: string): string {
  return join(root(scope, ctx), '.claude', 'skills', name, 'SKILL.md');
}
