import { SvcError, type AdapterContext, type IntegrationScope } from '@svc-org/ai-sdk';

// Where Codex keeps what the integrations edit. Codex honours CODEX_HOME, but an adapter cannot read
// the environment, so the default ~/.codex is used (documented in the README).

function join(...parts: string[]): string {
  return parts.join('/').replace(/\/+/g, '/');
}

function root(scope: IntegrationScope, ctx: AdapterContext): { dir: string; codexDir: string } {
  if (scope.scope === 'user') {
    const home = ctx.host.platform.homeDir;
    return { dir: home, codexDir: join(home, '.codex') };
  }
  if (!scope.projectDir || !scope.projectDir.startsWith('/')) {
    throw new SvcError({ code: 'invalid_request', message: 'a project scope needs an absolute projectDir' });
  }
  return { dir: scope.projectDir, codexDir: join(scope.projectDir, '.codex') };
}

/** `~/.codex/config.toml`, or `<project>/.codex/config.toml` (read by Codex in trusted projects only). */
export function codexConfigPath(scope: IntegrationScope, ctx: AdapterContext): string {
  return join(root(scope, ctx).codexDir, 'config.toml');
}

/** The user config.toml: the only layer Codex reads hook trust (`[hooks.state]`) from. */
export function userConfigPath(ctx: AdapterContext): string {
  return codexConfigPath({ scope: 'user' }, ctx);
}

export function hooksJsonPath(scope: IntegrationScope, ctx: AdapterContext): string {
  return join(root(scope, ctx).codexDir, 'hooks.json');
}

/** `~/.agents/skills` or `<project>/.agents/skills` (both read by codex 0.169.0, verified). */
export function skillsDir(scope: IntegrationScope, ctx: AdapterContext): string {
  return join(root(scope, ctx).dir, '.agents', 'skills');
}
