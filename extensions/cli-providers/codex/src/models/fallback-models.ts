import type { ModelInfo } from '@svc-org/ai-sdk';

/**
 * Used when `codex debug models` fails (an older CLI without the command, or a broken install): the
 * `visibility: "list"` entries of the catalog bundled in codex-cli 0.169.0, in its priority order,
 * copied from test/fake-clis/codex/recordings/debug-models.stdout.
 */
export const FALLBACK_MODELS: readonly ModelInfo[] = [
  { id: 'gpt-6.1-sol', displayName: 'GPT-6.1-Sol', description: 'Latest workhorse model for coding and everyday work.', contextWindow: 272000, default: true },
  { id: 'gpt-6-astra', displayName: 'GPT-6-Astra', description: 'Frontier intelligence for the most demanding work.', contextWindow: 272000 },
  { id: 'gpt-6-sol', displayName: 'GPT-6-Sol', description: 'Previous generation workhorse model.', contextWindow: 272000 },
  { id: 'gpt-6-luna', displayName: 'GPT-6-Luna', description: 'Fast and affordable model for easier tasks.', contextWindow: 272000 },
  { id: 'gpt-5.6-sol', displayName: 'GPT-5.6-Sol', description: 'Older generation workhorse model.', contextWindow: 272000 },
  { id: 'gpt-6.1-terra', displayName: 'GPT-6.1 Terra', description: 'GPT-6.1 Terra Codex model.', contextWindow: 500000 },
  { id: 'gpt-5.6-terra', displayName: 'GPT-5.6-Terra', description: 'Older balanced model for straightforward work.', contextWindow: 272000 },
  { id: 'gpt-5.6-luna', displayName: 'GPT-5.6-Luna', description: 'Older fast and efficient model.', contextWindow: 272000 },
  { id: 'gpt-5.5', displayName: 'GPT-5.5', description: 'Legacy coding model.', contextWindow: 272000 },
];
