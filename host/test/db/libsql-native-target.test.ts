import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test } from 'vitest';
import { currentTarget, familySync, GLIBC, libsqlIndex, MUSL, requireFromLibsql } from '../../src/platform/db/libsql-native-target.js';

// The packages libsql's index.js asks, loaded from its folder as it loads them.
const fromLibsql = createRequire(createRequire(import.meta.url).resolve('libsql'));
const neon = fromLibsql('@neon-rs/load') as { currentTarget(): string };
const detectLibc = fromLibsql('detect-libc') as { familySync(): string | null; GLIBC: string; MUSL: string };

test('names the native package libsql itself would pick on this machine', () => {
  // libsql's requireNative: @neon-rs/load's target, with a musl answer turned into gnu when detect-libc says glibc.
  let expected = neon.currentTarget();
  if (detectLibc.familySync() === detectLibc.GLIBC) expected = expected.replace(/^linux-(x64|arm64)-musl$/, 'linux-$1-gnu');
  expect(currentTarget()).toBe(expected);
  expect(familySync()).toBe(detectLibc.familySync());
  expect([GLIBC, MUSL]).toEqual([detectLibc.GLIBC, detectLibc.MUSL]);
});

test('loads that package from libsql\'s folder, a dependency of libsql rather than of svc', () => {
  const native = requireFromLibsql(`@libsql/${currentTarget()}`) as { databaseOpen?: unknown };
  expect(typeof native.databaseOpen).toBe('function');
});

test("finds libsql's index.js where Node's resolution of the package finds it (without resolving its exports map)", () => {
  expect(libsqlIndex()).toBe(realpathSync(createRequire(import.meta.url).resolve('libsql')));
});
