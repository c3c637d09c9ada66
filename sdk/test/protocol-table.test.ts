// The testing host gates what the real host gates, read from the same protocol table.
import { describe, expect, test } from 'vitest';
import { AdapterMethods, HostMethods, isIntegrationMethod, PERMISSION_NAMES, type HostContext, type HostMethodName } from '../src/index.js';
import { createTestHost } from '../src/testing/index.js';

/** The handle's methods act on a process only `$process.spawn` (gated) gives: they are not called alone. */
const ON_A_HANDLE = new Set<HostMethodName>(['$process.write', '$process.end', '$process.kill', '$process.ack']);

/** How an adapter calls each Host Context method through the HostContext it is given. */
const CALLS: Partial<Record<HostMethodName, (host: HostContext) => Promise<unknown>>> = {
  '$process.spawn': (host) => host.process.spawn({ command: 'cli', args: [] }),
  '$storage.get': (host) => host.storage.get('k'),
  '$storage.set': (host) => host.storage.set('k', 1),
  '$storage.delete': (host) => host.storage.delete('k'),
  '$storage.keys': (host) => host.storage.keys(''),
  '$log': async (host) => host.log.info('x'),
  '$config.get': (host) => host.config.get(),
  '$files.readText': (host) => host.files.readText('/home/test/.cli/config.json'),
  '$files.writeText': (host) => host.files.writeText('/home/test/.cli/config.json', '{}'),
  '$files.remove': (host) => host.files.remove('/home/test/.cli/config.json'),
};

describe('createTestHost follows the Host Context table', () => {
  test('every method the adapter calls directly is exercised below', () => {
    expect((Object.keys(HostMethods) as HostMethodName[]).filter((method) => !ON_A_HANDLE.has(method) && CALLS[method] === undefined)).toEqual([]);
  });

  test.each(Object.keys(CALLS) as HostMethodName[])('%s', async (method) => {
    const { permission } = HostMethods[method];
    const call = (host: HostContext) => CALLS[method]!(host).then(() => 'done');
    const none = createTestHost({ permissions: [] });
    const all = createTestHost({ permissions: PERMISSION_NAMES });
    if (permission === null) {
      await expect(call(none.host)).resolves.toBe('done');
    } else if (permission === 'integration') {
      await expect(call(all.host)).rejects.toMatchObject({ code: 'permission_denied' });
      await expect(call(all.context({ integration: 'mcp' }).host)).resolves.toBe('done');
    } else {
      await expect(call(none.host)).rejects.toMatchObject({ code: 'permission_denied' });
      await expect(call(createTestHost({ permissions: [permission] }).host)).resolves.toBe('done');
    }
  });

  test('an integration call needs the permission the adapter table names', () => {
    for (const [method, declaration] of Object.entries(AdapterMethods)) {
      if (!isIntegrationMethod(method as keyof typeof AdapterMethods)) continue;
      const kind = method.split('.')[0] as 'mcp' | 'hooks' | 'skills';
      expect(declaration.permission).toBe(`integration:${kind}`);
      expect(() => createTestHost({ permissions: [] }).context({ integration: kind })).toThrow(expect.objectContaining({ code: 'permission_denied' }));
      expect(createTestHost({ permissions: [declaration.permission!] }).context({ integration: kind }).host).toBeDefined();
    }
  });
});
