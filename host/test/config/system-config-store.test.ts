import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { SystemConfigStore } from '../../src/platform/config/system-config-store.js';
import { openDatabase } from '../../src/platform/db/index.js';
import { SYSTEM_CONFIG_KEYS } from '@svc-org/app/system-config-keys';

const dir = mkdtempSync(join(tmpdir(), 'svc-config-'));
const db = openDatabase(join(dir, 'svc.db'));
const store = new SystemConfigStore(db, SYSTEM_CONFIG_KEYS);
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

test('sets, reads and unsets a known key', () => {
  // A catalog's base URL is kept as the one documented form, its index URL.
  expect(store.set('extensions.catalogUrl', ' https://downloads.test/svc ')).toBe('https://downloads.test/svc/index.v1.json');
  expect(store.get('extensions.catalogUrl')).toBe('https://downloads.test/svc/index.v1.json');
  expect(store.list()).toEqual([{ key: 'extensions.catalogUrl', value: 'https://downloads.test/svc/index.v1.json' }]);
  expect(store.unset('extensions.catalogUrl')).toBe(true);
  expect(store.unset('extensions.catalogUrl')).toBe(false);
  expect(store.get('extensions.catalogUrl')).toBeUndefined();
});

test('refuses an unknown key, for reading too', () => {
  expect(() => store.set('extensions.catalogURL', 'https://x.test')).toThrow(expect.objectContaining({ code: 'config_key_unknown' }));
  expect(() => store.get('nope')).toThrow(expect.objectContaining({ code: 'config_key_unknown' }));
  expect(() => store.set('__proto__', 'x')).toThrow(expect.objectContaining({ code: 'config_key_unknown' }));
});

test('checks each value against its key', () => {
  expect(() => store.set('extensions.catalogUrl', 'http://x.test/c')).toThrow(expect.objectContaining({ code: 'https_required' }));
  expect(() => store.set('extensions.catalogUrl', 'https://x.test/c?sig=abc')).toThrow(expect.objectContaining({ code: 'config_value_invalid' }));
  expect(() => store.set('extensions.maxArtifactBytes', '1.5')).toThrow(expect.objectContaining({ code: 'config_value_invalid', message: 'extensions.maxArtifactBytes must be a positive integer' }));
  expect(() => store.set('extensions.maxEntries', '0')).toThrow(expect.objectContaining({ code: 'config_value_invalid' }));
  expect(store.set('extensions.maxEntries', '200')).toBe('200');
  expect(store.set('terminals.keepaliveMs', '60000')).toBe('60000');
});
