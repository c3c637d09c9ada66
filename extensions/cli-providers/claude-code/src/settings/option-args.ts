import type { ClaudeCodeSettings } from './claude-code-settings.js';

/** Flags shared by sessions and queries, in the order they are passed: model, then permission mode. */
export function optionArgs(model: string | undefined, settings: ClaudeCodeSettings): string[] {
  const args: string[] = [];
  if (model) args.push('--model', model);
  if (settings.permissionMode) args.push('--permission-mode', settings.permissionMode);
  return args;
}
