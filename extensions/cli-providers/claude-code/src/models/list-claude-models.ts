import type { ModelInfo } from '@svc-org/ai-sdk';
import type { ClaudeCodeSettings } from '../settings/claude-code-settings.js';
import { CLAUDE_CODE_MODELS } from './claude-code-models.js';

/**
 * The documented list plus the model of the user's config (when it is not in the list), with the
 * default marked: the configured model, or the CLI's own `default` when none is configured.
 */
export function listClaudeModels(settings: Pick<ClaudeCodeSettings, 'model'>): ModelInfo[] {
  const chosen = settings.model ?? 'default';
  const models = CLAUDE_CODE_MODELS.map((model) => ({ ...model }));
  if (!models.some((model) => model.id === chosen)) {
    models.unshift({ id: chosen, displayName: chosen, description: 'From this connection’s settings' });
  }
  return models.map((model) => (model.id === chosen ? { ...model, default: true } : model));
}
