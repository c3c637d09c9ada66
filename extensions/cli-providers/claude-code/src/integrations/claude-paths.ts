import { SvcError, type AdapterContext, type IntegrationScope } from '@svc-org/ai-sdk';
import { isAbsolute, join } from 'node:path';

// Where Claude Code keeps what the integrations edit (2.1.197; `claude mcp add -s user|project`
// writes the first two). The user layer is $CLAUDE_CONFIG_DIR when it is set in the environment
// Claude Code runs in (the scope's env): its settings.json, skills/ and .claude.json all move
// there; otherwise ~/.claude and ~/.claude.json. Paths are absolute; nothing is read from process.env.

/** $CLAUDE_CONFIG_DIR (absolute) or undefined. */
function configDirOverride(scope: IntegrationScope): string | undefined {
  const override = scope.env?.CLAUDE_CONFIG_DIR;
  if (override === undefined || override === '') return undefined;
  if (!isAbsolute(override)) {
    throw new SvcError({ code: 'invalid_request', message: `CLAUDE_CONFIG_DIR must be an absolute path (it is "${override}")` });
  }
  return override;
}

function projectDir(scope: IntegrationScope): string {
  if (!scope.projectDir || !isAbsolute(scope.projectDir)) {
    throw new SvcError({ code: 'invalid_request', message: 'a project scope needs an absolute projectDir' });
  }
  return scope.projectDir;
}

/** The folder of settings.json and skills/: $CLAUDE_CONFIG_DIR or ~/.claude; <dir>/.claude for a project. */
function claudeDir(scope: IntegrationScope, ctx: AdapterContext): string {
  if (scope.scope === 'project') return join(projectDir(scope), '.claude');
  return configDirOverride(scope) ?? join(ctx.host.platform.homeDir, '.claude');
}

/** user: ~/.claude.json, or $CLAUDE_CONFIG_DIR/.claude.json (top-level mcpServers); project: <dir>/.mcp.json. */
export function mcpConfigPath(scope: IntegrationScope, ctx: AdapterContext): string {
  if (scope.scope === 'project') return join(projectDir(scope), '.mcp.json');
  return join(configDirOverride(scope) ?? ctx.host.platform.homeDir, '.claude.json');
}

/**
 * user: ~/.claude/settings.json (or under $CLAUDE_CONFIG_DIR); project: <dir>/.claude/settings.local.json
 * — the project file the CLI keeps out of version control, because a hook command is an absolute path on this machine.
 */
export function settingsPath(scope: IntegrationScope, ctx: AdapterContext): string {
  return join(claudeDir(scope, ctx), scope.scope === 'user' ? 'settings.json' : 'settings.local.json');
}

/** <claude dir>/skills/<name>/SKILL.md. */
export function skillPath(scope: IntegrationScope, ctx: AdapterContext, name: string): string {
  return join(claudeDir(scope, ctx), 'skills', name, 'SKILL.md');
}
