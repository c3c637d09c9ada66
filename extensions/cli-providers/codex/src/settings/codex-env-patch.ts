import type { CodexSettings } from './codex-settings.js';

/**
 * The child's environment additions. The API key travels only here, as CODEX_API_KEY (the variable
 * `codex exec` reads for API-key auth; verified on 0.169.0 with `openai_base_url` pointed at a local
 * server: the key arrived as the bearer token, while OPENAI_API_KEY was not used).
 */
export function codexEnvPatch(settings: CodexSettings): Record<string, string> {
  return settings.apiKey ? { CODEX_API_KEY: settings.apiKey } : {};
}
