import { createHash } from 'node:crypto';
import ssri from 'ssri';
import type { CatalogArtifact } from '@svc-org/extension-format/catalog';

/** SHA-256 (hex and SRI) and byte size of an artifact, as the index records them. */
export function digestArtifact(bytes: Buffer): Omit<CatalogArtifact, 'url'> {
  return {
    sha256: createHash('sha256').update(bytes).digest('hex'),
    integrity: ssri.fromData(bytes, { algorithms: ['sha256'] }).toString(),
    size: bytes.length,
  };
}
