// A catalog version's tree must be the one installed: the first check, before even the manifest is read.
import { checkFailed, type CheckResult, PreflightCodes } from '@svc-org/extension-format/manifest';
import { computeTreeDigest } from './compute-tree-digest.js';

export async function checkTreeDigest(packageDir: string, expected: string): Promise<CheckResult<'integrity'>> {
  const actual = await computeTreeDigest(packageDir).catch((error: NodeJS.ErrnoException) => `unreadable (${error.code ?? error.message})`);
  if (actual === expected) return { check: 'integrity', ok: true };
  return checkFailed(
    'integrity',
    PreflightCodes.artifactModified,
    `the installed files of ${packageDir} changed after the install (tree sha256 ${actual}, installed ${expected}); they will not run`,
    'Reinstall the version: `svc ext uninstall <id>` then `svc ext install <id>@<version>` (and find out what wrote into the extension store)',
    { expected, actual },
  );
}
