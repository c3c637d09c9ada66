import { SvcError, type AdapterContext, type IntegrationScope } from '@svc-org/ai-sdk';
import { isAbsolute, join } from 'node:path';

/**
 * The home Gemini CLI puts `.gemini` in: $GEMINI_CLI_HOME when set in the environment it runs in
 * (the scope's env), else the user's home — as the CLI's own `homedir()` resolves it
 * (packages/core/src/utils/paths.ts).
 */
export function geminiHome(scope: Pick<IntegrationScope, 'env'>, ctx: AdapterContext): string {
  const override = scope.env?.GEMINI_CLI_HOME;
  if (override === undefined || override === '') return ctx.host.platform.homeDir;
  if (!isAbsolute(override)) {
    throw new SvcError({ code: 'invalid_request', message: `GEMINI_CLI_HOME must be an absolute path (it is "${override}")` });
  }
  return override;
}

/** `<home>/.gemini` for the user scope (home as `geminiHome`), `<projectDir>/.gemini` for the project scope (absolute paths only). */
export function geminiDir(scope: IntegrationScope, ctx: AdapterContext): string {
  if (scope.scope === 'user') return join(geminiHome(scope, ctx), '.gemini');
  if (scope.scope === 'project') {
    if (!scope.projectDir || !isAbsolute(scope.projectDir)) {
      throw new SvcError({ code: 'invalid_request', message: 'a project-scope integration needs an absolute projectDir' });
    }
    return join(scope.projectDir, '.gemini');
  }
  throw new SvcError({ code: 'invalid_request', message: `unknown integration scope "${String((scope as { scope?: unknown }).scope)}"` });
}

/** The settings.json the CLI merges (project over user); `gemini mcp add -s user|project` writes the same files. */
export function settingsPath(scope: IntegrationScope, ctx: AdapterContext): string {
  return join(geminiDir(scope, ctx), 'settings.json');
}
