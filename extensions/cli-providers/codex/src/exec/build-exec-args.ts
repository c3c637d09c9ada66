import type { QueryRequest } from '@svc-org/ai-sdk';
import { codexOptionArgs } from '../settings/codex-option-args.js';
import type { CodexSettings } from '../settings/codex-settings.js';

/**
 * Arguments of a headless query:
 *   fresh:     codex exec --json --skip-git-repo-check <options> -- <prompt>
 *   resume:    codex exec resume --json --skip-git-repo-check <options> <id> -- <prompt>
 *   continue:  codex exec resume --last --json --skip-git-repo-check <options> -- <prompt>
 * `--` keeps a prompt that starts with `-` a prompt. `--skip-git-repo-check` because the host picks
 * the working directory, which need not be a git work tree (codex otherwise exits 1). There is no
 * max-turns option in codex; the caller reports `maxTurns` as ignored.
 */
export function buildExecArgs(request: QueryRequest, settings: CodexSettings): string[] {
  const options = [
    '--json',
    '--skip-git-repo-check',
    ...codexOptionArgs(settings, request.model ?? settings.model),
    ...(request.baseArgs ?? []),
  ];
  if (request.resume) return ['exec', 'resume', ...options, request.resume, '--', request.prompt];
  if (request.continue) return ['exec', 'resume', '--last', ...options, '--', request.prompt];
  return ['exec', ...options, '--', request.prompt];
}
