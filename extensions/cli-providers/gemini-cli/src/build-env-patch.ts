import type { ProviderSettings } from './provider-settings.js';

/**
 * The environment the CLI gets on top of the host's. The API key travels only here, never in args.
 * Trust is an environment variable rather than --skip-trust on purpose: 0.61.0 loads settings before
 * it reads --skip-trust, so only GEMINI_CLI_TRUST_WORKSPACE makes the folder's .gemini/settings.json
 * (its MCP servers and hooks) apply.
 */
export function buildEnvPatch(settings: ProviderSettings): Record<string, string> {
  const env: Record<string, string> = {};
  if (settings.apiKey) env.GEMINI_API_KEY = settings.apiKey;
  if (settings.trustWorkspace) env.GEMINI_CLI_TRUST_WORKSPACE = 'true';
  return env;
}
