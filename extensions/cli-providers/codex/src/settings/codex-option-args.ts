import type { CodexSettings } from './codex-settings.js';

/**
 * Options shared by `codex`, `codex resume`, `codex exec` and `codex exec resume`. The sandbox goes
 * through `-c sandbox_mode=…` because `exec resume` has no `-s`; `-c` values are parsed as TOML, so
 * strings are quoted.
 */
export function codexOptionArgs(settings: CodexSettings, model: string | undefined): string[] {
  const args: string[] = [];
  if (settings.approvalMode === 'bypass') args.push('--dangerously-bypass-approvals-and-sandbox');
  if (settings.sandbox !== 'default') args.push('-c', `sandbox_mode="${settings.sandbox}"`);
  if (settings.reasoningEffort !== 'default') args.push('-c', `model_reasoning_effort="${settings.reasoningEffort}"`);
  if (model) args.push('-m', model);
  args.push(...settings.extraArgs);
  return args;
}
