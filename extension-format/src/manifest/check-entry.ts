// `exports["./svc-cli-provider"]` must name a regular file inside the package. The file is only
// located here, never read or imported: loading it is the worker's job, after preflight passes.
import { ENTRY_EXPORT, type ProviderPackage } from '@svc-org/ai-sdk';
import { checkFailed, type CheckResult } from './check-result.js';
import { PreflightCodes } from './preflight-codes.js';
import { resolvePackageFile } from './resolve-package-file.js';

export type EntryCheckResult = CheckResult<'entry', { entryPath: string }>;

const FIELD = `exports["${ENTRY_EXPORT}"]`;

/** The path an export target names: a string, or the `import` (else `default`) string of a conditions object. */
function exportTarget(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const conditions = value as Record<string, unknown>;
    if (typeof conditions.import === 'string') return conditions.import;
    if (typeof conditions.default === 'string') return conditions.default;
  }
  return undefined;
}

export async function checkEntry(packageDir: string, pkg: ProviderPackage): Promise<EntryCheckResult> {
  const target = exportTarget(pkg.exports[ENTRY_EXPORT]);
  if (target === undefined) {
    return checkFailed(
      'entry',
      PreflightCodes.entryMissing,
      `package.json has no ${FIELD} path`,
      `Set ${FIELD} to the built entry file, for example "./dist/svc-cli-provider.js"`,
    );
  }
  const resolution = await resolvePackageFile(packageDir, target);
  if (resolution.ok) {
    // Node refuses export targets that do not start with "./"; say so now rather than at import time.
    if (!target.startsWith('./')) {
      return checkFailed(
        'entry',
        PreflightCodes.entryMissing,
        `${FIELD} is "${target}", which Node does not accept as an export target (it must start with "./")`,
        `Write ${FIELD} as "./${target}"`,
        { target },
      );
    }
    return { check: 'entry', ok: true, entryPath: resolution.path };
  }

  switch (resolution.reason) {
    case 'absolute':
    case 'parent-segment':
    case 'outside':
      return checkFailed(
        'entry',
        PreflightCodes.entryOutsidePackage,
        resolution.reason === 'outside'
          ? `${FIELD} "${target}" resolves through a link to ${resolution.resolved}, outside the package`
          : `${FIELD} "${target}" points outside the package`,
        `Point ${FIELD} at a file inside the package (no absolute path, no "..", no link leaving the package)`,
        { target, ...(resolution.resolved ? { resolved: resolution.resolved } : {}) },
      );
    case 'missing':
    case 'not-a-file':
      return checkFailed(
        'entry',
        PreflightCodes.entryMissing,
        resolution.reason === 'missing' ? `${FIELD} "${target}" does not exist` : `${FIELD} "${target}" is not a regular file`,
        `Build the provider so ${target} exists (for example \`pnpm build\`), or correct ${FIELD}`,
        { target },
      );
  }
}
