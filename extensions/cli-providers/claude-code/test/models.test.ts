import { ModelInfoSchema } from '@svc-org/ai-sdk';
import { createTestHost } from '@svc-org/ai-sdk/testing';
import { describe, expect, test } from 'vitest';
import { svcCliPlugin } from '../src/index.js';

async function models(config: Record<string, string> = {}) {
  const host = createTestHost({ permissions: ['config:provider'], config });
  const adapter = await svcCliPlugin.createAdapter();
  return { list: await adapter.models!(host.context()), spawned: host.spawned };
}

describe('models', () => {
  test('the documented list, with the CLI default marked when nothing is configured, and no process started', async () => {
    const { list, spawned } = await models();
    expect(list.map((model) => model.id)).toEqual([
      'default',
      'fable',
      'opus',
      'opus[1m]',
      'sonnet',
      'sonnet[1m]',
      'haiku',
      'opusplan',
      'claude-fable-5',
      'claude-opus-4-8',
      'claude-sonnet-5',
      'claude-haiku-4-5-20251001',
    ]);
    expect(list.filter((model) => model.default).map((model) => model.id)).toEqual(['default']);
    for (const model of list) ModelInfoSchema.parse(model);
    expect(spawned).toEqual([]);
  });

  test('the configured model is the default', async () => {
    const { list } = await models({ model: 'sonnet' });
    expect(list.filter((model) => model.default).map((model) => model.id)).toEqual(['sonnet']);
  });

  test('a configured model outside the list is added first, as the default', async () => {
    const { list } = await models({ model: 'claude-opus-4-7' });
    expect(list[0]).toEqual({ id: 'claude-opus-4-7', displayName: 'claude-opus-4-7', description: 'From this connection’s settings', default: true });
    expect(list.filter((model) => model.default)).toHaveLength(1);
  });
});
