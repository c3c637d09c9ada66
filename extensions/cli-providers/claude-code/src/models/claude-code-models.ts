import type { ModelInfo } from '@svc-org/ai-sdk';

/**
 * Claude Code has no command that lists models (only the interactive /model picker). This is the
 * documented set: the aliases `--help` names (fable, opus, sonnet) and the others it accepts, and the
 * full names they resolved to with 2.1.197 — checked by running `claude -p --model <alias>` against
 * the scripted model server and reading the model the CLI requested.
 */
export const CLAUDE_CODE_MODELS: readonly ModelInfo[] = [
  {
    id: 'default',
    displayName: 'Default',
    description: "The CLI's own choice for the account (claude-opus-4-8 with the 1M context window in 2.1.197)",
  },
  { id: 'fable', displayName: 'Fable (latest)', description: 'Alias; claude-fable-5 in 2.1.197' },
  { id: 'opus', displayName: 'Opus (latest)', description: 'Alias; claude-opus-4-8 in 2.1.197' },
  { id: 'opus[1m]', displayName: 'Opus, 1M context', description: 'Alias; claude-opus-4-8 with the 1M context window', contextWindow: 1_000_000 },
  { id: 'sonnet', displayName: 'Sonnet (latest)', description: 'Alias; claude-sonnet-5 in 2.1.197' },
  { id: 'sonnet[1m]', displayName: 'Sonnet, 1M context', description: 'Alias; claude-sonnet-5 with the 1M context window', contextWindow: 1_000_000 },
  { id: 'haiku', displayName: 'Haiku (latest)', description: 'Alias; claude-haiku-4-5-20251001 in 2.1.197' },
  { id: 'opusplan', displayName: 'Opus plan, Sonnet otherwise', description: 'Alias; Opus in plan mode, Sonnet for the rest' },
  { id: 'claude-fable-5', displayName: 'Claude Fable 5' },
  { id: 'claude-opus-4-8', displayName: 'Claude Opus 4.8' },
  { id: 'claude-sonnet-5', displayName: 'Claude Sonnet 5' },
  { id: 'claude-haiku-4-5-20251001', displayName: 'Claude Haiku 4.5' },
];
