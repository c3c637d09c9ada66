// Size bounds of catalog installs (DESIGN: size bounds). Defaults live here once; callers pass the
// system-config overrides and get them checked, with a message naming the option and the rule.
import { SvcError } from '@svc-org/ai-sdk';
import { InstallErrorCodes } from './install-error-codes.js';

const MiB = 1024 * 1024;

export interface InstallBounds {
  /** Bytes of the index.v1.json response, enforced while streaming. */
  maxIndexBytes: number;
  /** Bytes of a compressed artifact, enforced while streaming and before reading a file. */
  maxArtifactBytes: number;
  /** Bytes of file contents (plus extended headers) once unpacked, enforced at each entry header. */
  maxUnpackedBytes: number;
  /** Files and folders in an artifact. */
  maxEntries: number;
}

export const DEFAULT_INSTALL_BOUNDS: Readonly<InstallBounds> = Object.freeze({
  maxIndexBytes: 4 * MiB,
  maxArtifactBytes: 32 * MiB,
  maxUnpackedBytes: 128 * MiB,
  maxEntries: 5_000,
});

export function resolveInstallBounds(overrides: Partial<InstallBounds> = {}): InstallBounds {
  const bounds = { ...DEFAULT_INSTALL_BOUNDS };
  for (const key of Object.keys(DEFAULT_INSTALL_BOUNDS) as Array<keyof InstallBounds>) {
    const value = overrides[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new SvcError({
        code: InstallErrorCodes.boundsInvalid,
        message: `bounds.${key} must be a positive integer (got ${String(value)})`,
        details: { option: key },
      });
    }
    bounds[key] = value;
  }
  return bounds;
}
