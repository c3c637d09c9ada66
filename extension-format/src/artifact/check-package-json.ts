// The artifact's package.json may describe the package, never ask an installer to do anything: no
// scripts at all (every script name is a lifecycle hook for some tool), no dependency declarations
// (providers bundle what they use), no node-gyp build. The catalog build strips all of these, so an
// artifact that has them did not come from it.
import { SvcError } from '@svc-org/ai-sdk';
import { InstallErrorCodes } from './install-error-codes.js';

export const MAX_PACKAGE_JSON_BYTES = 1024 * 1024;

export const DEPENDENCY_FIELDS = [
  'dependencies',
  'devDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'optionalDependencies',
  'bundledDependencies',
  'bundleDependencies',
] as const;

export type ArtifactPackageJson = Record<string, unknown> & { name: string; version: string };

/**
 * The package's own package.json (`package/package.json`), or with `nested` any other package.json of
 * the artifact (any letter case): those describe nothing the host reads, but a tool run inside the
 * installed folder would honour their scripts, so they are held to the same rules.
 */
export function checkPackageJson(bytes: Buffer, where = 'package/package.json', nested = false): ArtifactPackageJson {
  const invalid = (message: string) => new SvcError({ code: InstallErrorCodes.artifactInvalidMetadata, message: `${where} ${message}` });
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw invalid('is not valid UTF-8 JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('is not a JSON object');
  const pkg = value as Record<string, unknown>;
  if (Object.hasOwn(pkg, 'scripts')) {
    const names = typeof pkg.scripts === 'object' && pkg.scripts !== null ? Object.keys(pkg.scripts) : [];
    throw new SvcError({
      code: InstallErrorCodes.artifactLifecycleScripts,
      message: `${where} declares scripts${names.length > 0 ? ` (${names.join(', ')})` : ''}; artifacts carry none`,
      details: { entry: where, scripts: names },
    });
  }
  const dependencyFields = DEPENDENCY_FIELDS.filter((field) => Object.hasOwn(pkg, field));
  if (dependencyFields.length > 0) {
    throw new SvcError({
      code: InstallErrorCodes.artifactDependencies,
      message: `${where} declares ${dependencyFields.join(', ')}; artifacts bundle their code and declare no dependencies`,
      details: { entry: where, fields: dependencyFields },
    });
  }
  if (Object.hasOwn(pkg, 'gypfile')) {
    throw new SvcError({ code: InstallErrorCodes.artifactNativeModule, message: `${where} declares a node-gyp build (gypfile)`, details: { entry: where } });
  }
  if (nested) return pkg as ArtifactPackageJson;
  if (typeof pkg.name !== 'string' || pkg.name === '') throw invalid('has no "name"');
  if (typeof pkg.version !== 'string' || pkg.version === '') throw invalid('has no "version"');
  return pkg as ArtifactPackageJson;
}
