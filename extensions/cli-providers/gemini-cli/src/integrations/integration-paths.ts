import { SvcError, type AdapterContext, type IntegrationScope } from '@svc-org/ai-sdk';
import { isAbsolute, join } from 'node:path';

/** `~/.gemini` for the user scope, `<projectDir>/.gemini` for the project scope (absolute paths only). */
export function geminiDir(scope: IntegrationScope, ctx: AdapterContext): string {
  if (scope.scope === 'user') return join(ctx.host.platform.homeDir, '.gemini');
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
