import type { ClaudeCodeSettings } from './claude-code-settings.js';

/** The only way the API key reaches the CLI: its environment, never an argument (arguments show in `ps`). */
export function claudeEnvPatch(settings: Pick<ClaudeCodeSettings, 'apiKey'>): Record<string, string> {
  return settings.apiKey ? { ANTHROPIC_API_KEY: settings.apiKey } : {};
}
