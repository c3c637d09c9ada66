import type { ModelInfo } from '@svc-org/ai-sdk';

/**
 * Gemini CLI 0.61.0 has no command that lists models. These are the names its `-m` accepts, from
 * packages/core/src/config/models.ts (VALID_GEMINI_MODELS and the aliases) and docs/cli/model.md of
 * that version. "auto" is the CLI's own default: a router picks a model per request.
 */
export const GEMINI_MODELS: readonly ModelInfo[] = [
  { id: 'auto', displayName: 'Auto', description: 'Let Gemini CLI pick a model per request (its default)' },
  { id: 'pro', displayName: 'Pro (alias)', description: 'The newest Pro model the account can use' },
  { id: 'flash', displayName: 'Flash (alias)', description: 'The newest Flash model the account can use' },
  { id: 'flash-lite', displayName: 'Flash-Lite (alias)', description: 'The newest Flash-Lite model the account can use' },
  { id: 'gemini-3.1-pro-preview', displayName: 'Gemini 3.1 Pro (preview)' },
  { id: 'gemini-3-pro-preview', displayName: 'Gemini 3 Pro (preview)' },
  { id: 'gemini-3-flash-preview', displayName: 'Gemini 3 Flash (preview)' },
  { id: 'gemini-3.5-flash', displayName: 'Gemini 3.5 Flash' },
  { id: 'gemini-3.1-flash-lite', displayName: 'Gemini 3.1 Flash-Lite' },
  { id: 'gemini-2.5-pro', displayName: 'Gemini 2.5 Pro' },
  { id: 'gemini-2.5-flash', displayName: 'Gemini 2.5 Flash' },
];

/** The documented list plus the model of the connection's settings; that one (else "auto") is the default. */
export function listGeminiModels(configuredModel: string): ModelInfo[] {
  const models = GEMINI_MODELS.map((model) => ({ ...model }));
  const wanted = configuredModel.trim();
  if (wanted && !models.some((model) => model.id === wanted)) {
    models.unshift({ id: wanted, displayName: wanted, description: 'From this connection\'s settings' });
  }
  const defaultId = wanted || 'auto';
  for (const model of models) if (model.id === defaultId) model.default = true;
  return models;
}
