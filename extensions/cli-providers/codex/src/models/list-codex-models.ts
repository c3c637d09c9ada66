import { ErrorCodes, SvcError, type AdapterContext, type ModelInfo, redactSecrets } from '@svc-org/ai-sdk';
import { readCodexSettings } from '../settings/codex-settings.js';
import { FALLBACK_MODELS } from './fallback-models.js';
import { parseDebugModels } from './parse-debug-models.js';

const TIMEOUT_MS = 30_000;

/**
 * The models of `codex debug models` (works offline: it renders the bundled catalog), or the
 * documented fallback list when that fails. A model set in the connection's settings is marked
 * default, and added when the catalog does not know it (a custom provider's model).
 */
export async function listCodexModels(ctx: AdapterContext): Promise<ModelInfo[]> {
  const settings = await readCodexSettings(ctx.host);
  let models: ModelInfo[];
  try {
    const run = await ctx.host.process.run(
      { command: ctx.cli.command, args: ['debug', 'models'], cwd: ctx.host.platform.homeDir, stdin: '' },
      { signal: ctx.signal, timeoutMs: TIMEOUT_MS },
    );
    if (run.exitCode !== 0) throw new Error(`exit ${run.exitCode ?? run.signal}: ${run.stderr.trim().slice(-500)}`);
    models = parseDebugModels(run.stdout);
  } catch (error) {
    // A refused permission or a cancelled call is an answer, not a reason to fall back.
    if (ctx.signal.aborted || (SvcError.hasCode(error) && error.code === ErrorCodes.permissionDenied)) throw error;
    ctx.host.log.warn('codex debug models failed; using the documented model list', {
      reason: redactSecrets(error instanceof Error ? error.message : String(error), [settings.apiKey]),
    });
    models = FALLBACK_MODELS.map((model) => ({ ...model }));
  }
  const preferred = settings.model;
  if (!preferred) return models;
  if (!models.some((model) => model.id === preferred)) models.unshift({ id: preferred, displayName: preferred });
  return models.map((model) => {
    const { default: _wasDefault, ...rest } = model;
    return model.id === preferred ? { ...rest, default: true } : rest;
  });
}
