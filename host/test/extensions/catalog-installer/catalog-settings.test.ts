import { expect, test } from 'vitest';
import { resolveCatalogSettings } from '../../../src/features/extensions/catalog-installer/index.js';
import { DEFAULT_INSTALL_BOUNDS } from '../../../src/features/extensions/install/index.js';

const config = (values: Record<string, string>) => (key: string) => values[key];

test('the environment wins over the system config', () => {
  const settings = resolveCatalogSettings({ SVC_EXTENSION_CATALOG_URL: 'https://env.test/c/index.v1.json' }, config({ 'extensions.catalogUrl': 'https://config.test/c' }));
  expect(settings.indexUrl.href).toBe('https://env.test/c/index.v1.json');
  expect(settings.indexUrlSource).toBe('env');
});

test('falls back to extensions.catalogUrl; a base URL gets index.v1.json appended', () => {
  for (const base of ['https://config.test/catalog', 'https://config.test/catalog/']) {
    const settings = resolveCatalogSettings({}, config({ 'extensions.catalogUrl': base }));
    expect(settings.indexUrl.href).toBe('https://config.test/catalog/index.v1.json');
    expect(settings.indexUrlSource).toBe('config');
  }
});

test('refuses a missing, a plain-HTTP and a credentialed catalog URL with their codes', () => {
  expect(() => resolveCatalogSettings({}, config({}))).toThrow(expect.objectContaining({ code: 'catalog_not_configured' }));
  expect(() => resolveCatalogSettings({ SVC_EXTENSION_CATALOG_URL: 'http://x.test/c' }, config({}))).toThrow(expect.objectContaining({ code: 'https_required' }));
  expect(() => resolveCatalogSettings({ SVC_EXTENSION_CATALOG_URL: 'https://u:p@x.test/c' }, config({}))).toThrow(expect.objectContaining({ code: 'url_invalid' }));
});

test('reads the bearer token from SVC_EXTENSION_CATALOG_TOKEN only', () => {
  expect(resolveCatalogSettings({ SVC_EXTENSION_CATALOG_URL: 'https://x.test/c', SVC_EXTENSION_CATALOG_TOKEN: 't0k' }, config({})).token).toBe('t0k');
  expect(resolveCatalogSettings({ SVC_EXTENSION_CATALOG_URL: 'https://x.test/c', SVC_EXTENSION_CATALOG_TOKEN: '' }, config({})).token).toBeUndefined();
});

test('bounds default to DESIGN.md and are overridden by system config; a bad bound names itself', () => {
  const env = { SVC_EXTENSION_CATALOG_URL: 'https://x.test/c' };
  expect(resolveCatalogSettings(env, config({})).bounds).toEqual(DEFAULT_INSTALL_BOUNDS);
  expect(resolveCatalogSettings(env, config({ 'extensions.maxArtifactBytes': '1048576', 'extensions.maxEntries': '10' })).bounds).toMatchObject({
    maxArtifactBytes: 1048576,
    maxEntries: 10,
    maxIndexBytes: DEFAULT_INSTALL_BOUNDS.maxIndexBytes,
  });
  expect(() => resolveCatalogSettings(env, config({ 'extensions.maxEntries': '-3' }))).toThrow(
    expect.objectContaining({ code: 'install_bounds_invalid', message: 'bounds.maxEntries must be a positive integer (got -3)' }),
  );
});
