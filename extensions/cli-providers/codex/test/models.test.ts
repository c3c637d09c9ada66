import { describe, expect, test } from 'vitest';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { CodexAdapter } from '../src/codex-adapter.js';
import { FALLBACK_MODELS } from '../src/models/fallback-models.js';
import { recordingScript } from './support/recordings.js';
import { PERMISSIONS } from './support/run-adapter.js';

const LISTED = ['gpt-6.1-sol', 'gpt-6-astra', 'gpt-6-sol', 'gpt-6-luna', 'gpt-5.6-sol', 'gpt-6.1-terra', 'gpt-5.6-terra', 'gpt-5.6-luna', 'gpt-5.5'];

function host(script: string, config: Record<string, string> = {}) {
  return createTestHost({ permissions: [...PERMISSIONS], cli: { command: 'codex' }, config, spawn: () => recordingScript(script) });
}

describe('models()', () => {
  test('lists the `visibility: list` entries of `codex debug models` in priority order, first is default', async () => {
    const test = host('debug-models');
    const models = await new CodexAdapter().models(test.context());
    expect(test.spawned[0]).toMatchObject({ command: 'codex', args: ['debug', 'models'], stdin: '' });
    expect(models.map((model) => model.id)).toEqual(LISTED);
    expect(models[0]).toEqual({
      id: 'gpt-6.1-sol',
      displayName: 'GPT-6.1-Sol',
      description: 'Latest workhorse model for coding and everyday work.',
      contextWindow: 272000,
      default: true,
    });
    expect(models.filter((model) => model.default)).toHaveLength(1);
    expect(models.map((model) => model.id)).not.toContain('codex-auto-review'); // hidden in the catalog
  });

  test('the documented list equals what codex-cli 0.169.0 prints', async () => {
    expect(await new CodexAdapter().models(host('debug-models').context())).toEqual(FALLBACK_MODELS);
  });

  test('a CLI without `debug models` (exit 2) falls back to the documented list and logs why', async () => {
    const test = host('debug-unknown-subcommand');
    expect(await new CodexAdapter().models(test.context())).toEqual(FALLBACK_MODELS);
    expect(test.logs).toEqual([
      {
        level: 'warn',
        message: 'codex debug models failed; using the documented model list',
        fields: { reason: expect.stringContaining("exit 2: error: unrecognized subcommand 'no-such-command'") },
      },
    ]);
  });

  test("the connection's model is the default, and is added when the catalog lacks it", async () => {
    const known = await new CodexAdapter().models(host('debug-models', { model: 'gpt-5.5' }).context());
    expect(known.filter((model) => model.default).map((model) => model.id)).toEqual(['gpt-5.5']);
    const custom = await new CodexAdapter().models(host('debug-models', { model: 'my-local-model' }).context());
    expect(custom[0]).toEqual({ id: 'my-local-model', displayName: 'my-local-model', default: true });
    expect(custom.filter((model) => model.default)).toHaveLength(1);
  });
});
