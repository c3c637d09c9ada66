import { describe, expect, test } from 'vitest';
import { createTestHost } from '../src/testing/index.js';

describe('createTestHost', () => {
  test('enforces permissions like the real host', async () => {
    const host = createTestHost({ permissions: [] });
    await expect(host.host.process.spawn({ command: 'x', args: [] })).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(host.host.config.get()).rejects.toMatchObject({ code: 'permission_denied' });
    expect(host.spawned).toEqual([]);
  });

  test('replays the scripted process output and exit code', async () => {
    const host = createTestHost({ spawn: (spec) => ({ stdout: [`ran ${spec.args.join(' ')}\n`, 'more\n'], stderr: 'warn\n', exitCode: 3 }) });
    const result = await host.host.process.run({ command: 'cli', args: ['a', 'b'] });
    expect(result).toEqual({ exitCode: 3, signal: null, stdout: 'ran a b\nmore\n', stderr: 'warn\n' });
  });

  test('a hanging process ends when the signal aborts', async () => {
    const host = createTestHost({ spawn: () => ({ stdout: 'start\n', hang: true }) });
    const controller = new AbortController();
    const child = await host.host.process.spawn({ command: 'cli', args: [] }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    expect(await child.exited).toMatchObject({ exitCode: null, killedBy: 'cancelled' });
  });

  test('storage and logs are inspectable', async () => {
    const host = createTestHost();
    await host.host.storage.set('k', { a: 1 });
    host.host.log.warn('careful', { n: 1 });
    expect(await host.host.storage.get('k')).toEqual({ a: 1 });
    expect(await host.host.storage.keys('')).toEqual(['k']);
    expect(host.logs).toEqual([{ level: 'warn', message: 'careful', fields: { n: 1 } }]);
  });
});
