// Only permissions this host knows how to explain and gate can be confirmed by a user.
import { PERMISSION_NAMES, isPermission, type Manifest } from '@svc-org/ai-sdk';
import { checkFailed, type CheckResult } from './check-result.js';
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
  return { check: 'permissions', ok: true };
}
