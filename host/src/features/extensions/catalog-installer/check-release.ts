// The only things a catalog operation is told: an extension id and an exact version. Both end up in
// store paths, so they are checked against their grammar before anything else happens.
import semver from 'semver';
import { EXTENSION_ID_PATTERN, SvcError } from '@svc-org/ai-sdk';
import { CatalogInstallCodes } from './catalog-install-codes.js';

const MAX_ID_LENGTH = 214;

export function checkExtensionId(id: string): string {
  if (id.length > MAX_ID_LENGTH || !EXTENSION_ID_PATTERN.test(id)) {
    throw new SvcError({
      code: CatalogInstallCodes.releaseSpecInvalid,
      message: `"${id}" is not an extension id (<publisher>.<name>, lowercase letters, digits and "-")`,
      details: { id },
    });
  }
  return id;
}

/** `1.2.3` or `1.2.3-beta.1`; never a range, a partial version, a `v` prefix, build metadata or a tag. */
export function checkExactVersion(version: string, id?: string): string {
  if (semver.valid(version) !== version) {
    const hint = id === undefined ? '' : ` (see \`svc ext catalog\` for the versions of ${id})`;
    throw new SvcError({
      code: CatalogInstallCodes.exactVersionRequired,
      message: `"${version}" is not an exact version; installs take exact catalog versions only, e.g. 1.2.0${hint}`,
      details: { version },
    });
  }
  return version;
}
