import { describe, expect, test } from 'vitest';
import { checkIndexFreshness } from '../../../src/features/extensions/catalog-trust/index.js';

const now = new Date('2030-01-01T00:00:00Z');
const index = (version?: number, expires?: string) => ({ schemaVersion: 1 as const, extensions: [], ...(version === undefined ? {} : { version }), ...(expires === undefined ? {} : { expires }) });

describe('checkIndexFreshness', () => {
  test('accepts an unexpired index at or above the highest accepted version', () => {
    expect(checkIndexFreshness(index(5, '2030-01-02T00:00:00Z'), now, undefined)).toEqual({ version: 5, expires: '2030-01-02T00:00:00Z' });
    expect(checkIndexFreshness(index(5, '2030-01-02T00:00:00Z'), now, 5)).toEqual({ version: 5, expires: '2030-01-02T00:00:00Z' });
    expect(checkIndexFreshness(index(6, '2030-01-02T00:00:00Z'), now, 5).version).toBe(6);
  });

  test('refuses an index older than the highest accepted version', () => {
    expect(() => checkIndexFreshness(index(4, '2030-01-02T00:00:00Z'), now, 5)).toThrow(
      expect.objectContaining({ code: 'index_rollback', details: { version: 4, highestAccepted: 5 } }),
    );
  });

  test('refuses an index whose expiry has come', () => {
    expect(() => checkIndexFreshness(index(5, '2030-01-01T00:00:00Z'), now, undefined)).toThrow(expect.objectContaining({ code: 'index_expired' }));
    expect(() => checkIndexFreshness(index(9, '2029-06-01T00:00:00Z'), now, 5)).toThrow(expect.objectContaining({ code: 'index_expired' }));
  });

  test('refuses a signed index without a version or an expiry', () => {
    expect(() => checkIndexFreshness(index(undefined, '2030-01-02T00:00:00Z'), now, undefined)).toThrow(expect.objectContaining({ code: 'index_invalid' }));
    expect(() => checkIndexFreshness(index(5), now, undefined)).toThrow(expect.objectContaining({ code: 'index_invalid' }));
  });
});
