import { expect, test } from 'vitest';
import { refuseLocations } from '../../src/adapters/http/refuse-locations.js';

const code = (input: Parameters<typeof refuseLocations>[0]) => {
  try {
    refuseLocations(input);
    return undefined;
  } catch (error) {
    return (error as { code: string }).code;
  }
};

test('ids, versions and empty requests pass', () => {
  expect(code({ body: { id: 'svc-community.qwen-code', version: '0.1.0-beta.2' }, query: {}, params: { id: 'acme.tool' } })).toBeUndefined();
  expect(code({ body: {} })).toBeUndefined();
  expect(code({ body: { permissions: ['process:spawn', 'network:provider'] } })).toBeUndefined();
});

test.each([
  [{ body: { url: 'https://c.test/index.v1.json' } }, 'catalog_url_not_accepted'],
  [{ body: { id: 'http://c.test/catalog' } }, 'catalog_url_not_accepted'],
  [{ body: { id: '//c.test/catalog' } }, 'catalog_url_not_accepted'],
  [{ body: { indexUrl: 'c.test' } }, 'catalog_url_not_accepted'],
  [{ query: { catalog: 'https://c.test' } }, 'catalog_url_not_accepted'],
  [{ body: { version: 'https://c.test/artifacts/a/1.0.0/a-1.0.0.tgz' } }, 'artifact_url_not_accepted'],
  [{ body: { nested: [{ artifact: 'a-1.0.0' }] } }, 'artifact_url_not_accepted'],
  [{ body: { download: 'https://cdn.test/x' } }, 'artifact_url_not_accepted'],
  [{ body: { id: '/opt/provider' } }, 'local_path_not_accepted'],
  [{ body: { id: './provider' } }, 'local_path_not_accepted'],
  [{ body: { id: '..' } }, 'local_path_not_accepted'],
  [{ body: { id: '~' } }, 'local_path_not_accepted'],
  [{ body: { id: 'D:provider' } }, 'local_path_not_accepted'],
  [{ body: { id: '\\\\server\\share' } }, 'local_path_not_accepted'],
  [{ body: { dir: 'provider' } }, 'local_path_not_accepted'],
  [{ body: { version: 'file:///tmp/a.tgz' } }, 'local_path_not_accepted'],
  [{ params: { id: '/etc' } }, 'local_path_not_accepted'],
  [{ query: { from: ['ok', 'x/y'] } }, 'local_path_not_accepted'],
])('refuses %j with %s', (input, expected) => {
  expect(code(input)).toBe(expected);
});
