// Only permissions this host knows how to explain and gate can be confirmed by a user, and the
// files an integration permission reaches are limited to the CLI's own configuration (cli-config-files.ts).
import { PERMISSION_NAMES, isPermission, type Manifest } from '@svc-org/ai-sdk';
import { checkFailed, type CheckResult } from './check-result.js';
import { cliConfigFilesOf, integrationFilesOutside, KNOWN_CONFIG_CLIS } from './cli-config-files.js';
import { PreflightCodes } from './preflight-codes.js';

export type PermissionsCheckResult = CheckResult<'permissions'>;

export function checkPermissions(manifest: Manifest): PermissionsCheckResult {
  const unknown = manifest.permissions.filter((name) => !isPermission(name));
  if (unknown.length > 0) {
    return checkFailed(
      'permissions',
      PreflightCodes.permissionUnknown,
      `unknown permission${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => `"${name}"`).join(', ')} in svc.permissions`,
      `Remove ${unknown.map((name) => `"${name}"`).join(', ')}; known permissions are ${PERMISSION_NAMES.join(', ')}`,
      { unknown, known: PERMISSION_NAMES },
    );
  }
  const duplicates = [...new Set(manifest.permissions.filter((name, index) => manifest.permissions.indexOf(name) !== index))];
  if (duplicates.length > 0) {
    return checkFailed(
      'permissions',
      PreflightCodes.manifestInvalid,
      `svc.permissions lists ${duplicates.map((name) => `"${name}"`).join(', ')} more than once`,
      'List each permission once in "svc.permissions"',
      { duplicates, errors: [{ path: '/svc/permissions', message: 'must not contain duplicates' }] },
    );
  }
  const outside = integrationFilesOutside(manifest);
  if (outside.length > 0) {
    const table = cliConfigFilesOf(manifest);
    return checkFailed(
      'permissions',
      PreflightCodes.integrationFileNotAllowed,
      table
        ? `svc.integrationFiles declares ${outside.map((item) => `"${item}"`).join(', ')}, outside ${table.display}'s own configuration (or one of its credential files)`
        : `svc.integrationFiles declares ${outside.map((item) => `"${item}"`).join(', ')}, but "${manifest.command.default}" is not a CLI whose configuration files svc knows`,
      table
        ? `Declare only entries within ${[...table.user, ...table.project.map((item) => `<project>/${item}`)].join(', ')}, without ${table.secretNames.join(', ')}`
        : `Remove svc.integrationFiles; integrations may touch only the configuration of ${KNOWN_CONFIG_CLIS.join(', ')}`,
      { outside, cli: manifest.command.default },
    );
  }
  return { check: 'permissions', ok: true };
}
