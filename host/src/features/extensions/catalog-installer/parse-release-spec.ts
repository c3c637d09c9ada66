import { SvcError } from '@svc-org/ai-sdk';
import { CatalogInstallCodes } from './catalog-install-codes.js';
import { checkExactVersion, checkExtensionId } from './check-release.js';

export interface ReleaseSpec {
  id: string;
  version: string;
}

/** `<id>@<exact version>` as typed on the command line. */
export function parseReleaseSpec(text: string): ReleaseSpec {
  const at = text.lastIndexOf('@');
  if (at === -1) {
    checkExtensionId(text);
    throw new SvcError({
      code: CatalogInstallCodes.exactVersionRequired,
      message: `name an exact version: ${text}@<version> (see \`svc ext catalog\`)`,
      details: { id: text },
    });
  }
  const id = checkExtensionId(text.slice(0, at));
  return { id, version: checkExactVersion(text.slice(at + 1), id) };
}
