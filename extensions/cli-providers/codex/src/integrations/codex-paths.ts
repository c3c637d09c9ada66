import { SvcError, type AdapterContext, type IntegrationScope } from '@svc-org/ai-sdk';

// Where Codex keeps what the integrations edit. The user layer is $CODEX_HOME when it is set in the
// environment Codex runs in (the scope's env), else ~/.codex — as Codex itself resolves it
// (`codex --help`: "$CODEX_HOME/config.toml"). The project layer is <project>/.codex.

function join(...parts: string[]): string {
  return parts.join('/').replace(/\/+/g, '/');
}

/** The user's Codex home: $CODEX_HOME (absolute) or ~/.codex. */
export function codexHome(scope: Pick<IntegrationScope, 'env'>, ctx: AdapterContext): string {
  const override = scope.env?.CODEX_HOME;
  if (override === undefined || override === '') return join(ctx.host.platform.homeDir, '.codex');
  if (!override.startsWith('/')) {
    throw new SvcError({ code: 'invalid_request', message: `CODEX_HOME must be an absolute path (it is "${override}")` });
  }
  return override.replace(/\/+$/, '') || '/';
}

function root(scope: IntegrationScope, ctx: AdapterContext): { dir: string; codexDir: string } {
  if (scope.scope === 'user') return { dir: ctx.host.platform.homeDir, codexDir: codexHome(scope, ctx) };
  if (!scope.projectDir || !scope.projectDir.startsWith('/')) {
    throw new SvcError({ code: 'invalid_request', message: 'a project scope needs an absolute projectDir' });
  }
  return { dir: scope.projectDir, codexDir: join(scope.projectDir, '.codex') };
}

/** The folder of the scope's Codex files: $CODEX_HOME / ~/.codex, or <project>/.codex. */
export function codexDir(scope: IntegrationScope, ctx: AdapterContext): string {
  return root(scope, ctx).codexDir;
}

/** `$CODEX_HOME/config.toml` (~/.codex/config.toml), or `<project>/.codex/config.toml` (read by Codex in trusted projects only). */
export function codexConfigPath(scope: IntegrationScope, ctx: AdapterContext): string {
  return join(root(scope, ctx).codexDir, 'config.toml');
}

/** The user config.toml: the only layer Codex reads hook trust (`[hooks.state]`) from. */
export function userConfigPath(scope: Pick<IntegrationScope, 'env'>, ctx: AdapterContext): string {
  return join(codexHome(scope, ctx), 'config.toml');
}

export function hooksJsonPath(scope: IntegrationScope, ctx: AdapterContext): string {
  return join(root(scope, ctx).codexDir, 'hooks.json');
}

/** `~/.agents/skills` or `<project>/.agents/skills` (both read by codex 0.169.0, verified). */
export function skillsDir(scope: IntegrationScope, ctx: AdapterContext): string {
  return join(root(scope, ctx).dir, '.agents', 'skills');
}
