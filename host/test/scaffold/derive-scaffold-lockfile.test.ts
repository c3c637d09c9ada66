import { describe, expect, test } from 'vitest';
import { deriveScaffoldLockfile, locateSvcCheckout, SCAFFOLD_TOOLS, type ScaffoldLockfileInput } from '../../src/features/extensions/scaffold/index.js';

// svc's real lockfile: the one a scaffold is cut from on this machine.
const checkout = locateSvcCheckout();
const input: ScaffoldLockfileInput = {
  svcLockfile: checkout.lockfile!,
  tools: Object.fromEntries(SCAFFOLD_TOOLS.map((tool) => [tool, checkout.toolVersions[tool]])),
  sdk: { name: '@svc-org/ai-sdk', specifier: `link:${checkout.sdkDir}`, relativePath: '../../svc/sdk' },
};

describe('deriveScaffoldLockfile', () => {
  test('keeps the dev tools with everything they depend on, and nothing of the host', () => {
    const lockfile = deriveScaffoldLockfile(input)!;

    expect(lockfile.startsWith("lockfileVersion: '9.0'\n\nsettings:\n")).toBe(true);
    expect(lockfile).toContain(`      '@svc-org/ai-sdk':\n        specifier: link:${checkout.sdkDir}\n        version: link:../../svc/sdk\n`);
    expect(lockfile).toContain(`      esbuild:\n        specifier: ${checkout.toolVersions.esbuild}\n        version: ${checkout.toolVersions.esbuild}\n`);
    expect(lockfile).toMatch(/^ {2}vite@[^\n]+:$/m);
    expect(lockfile).toMatch(/^ {2}'@esbuild\/linux-x64@[^\n]+':$/m);
    expect(lockfile).not.toMatch(/^ {2}koa@/m);
    expect(lockfile).not.toMatch(/^ {2}libsql@/m);
  });

  test('keeps every dependency of what it keeps: cutting the result again changes nothing', () => {
    const lockfile = deriveScaffoldLockfile(input)!;

    expect(deriveScaffoldLockfile({ ...input, svcLockfile: lockfile })).toBe(lockfile);
  });

  test('gives up when svc was installed with another version of a tool', () => {
    expect(deriveScaffoldLockfile({ ...input, tools: { ...input.tools, esbuild: '0.0.1' } })).toBeUndefined();
  });

  test('gives up on a lockfile format it does not know', () => {
    expect(deriveScaffoldLockfile({ ...input, svcLockfile: input.svcLockfile.replace("lockfileVersion: '9.0'", "lockfileVersion: '6.0'") })).toBeUndefined();
  });
});
