import type { ProviderSettings } from './provider-settings.js';

/**
 * The arguments sessions and queries share, in this order: the connection's base args (host-owned),
 * the provider's extra args, then `-m` and `--approval-mode`. The CLI's own flags come last so the
 * caller's words cannot split them.
 */
export function buildCommonArgs(options: { baseArgs?: string[]; model?: string }, settings: ProviderSettings): string[] {
  const args = [...(options.baseArgs ?? []), ...settings.extraArgs];
  const model = options.model?.trim() || settings.model;
  if (model) args.push('-m', model);
  // "default" is the CLI's own default: leave it to the CLI (and to a user's general.defaultApprovalMode).
  if (settings.approvalMode !== 'default') args.push('--approval-mode', settings.approvalMode);
  return args;
}
