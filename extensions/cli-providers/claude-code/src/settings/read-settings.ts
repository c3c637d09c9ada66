import type { AdapterContext } from '@svc-org/ai-sdk';
import { parseClaudeCodeSettings, type ClaudeCodeSettings } from './claude-code-settings.js';

/** The connection's settings (needs `config:provider`, which the manifest requests). */
export async function readSettings(ctx: AdapterContext): Promise<ClaudeCodeSettings> {
  return parseClaudeCodeSettings(await ctx.host.config.get());
}
