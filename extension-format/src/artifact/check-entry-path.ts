// Decides whether an archive path may be written below staging, and where. Everything that could
// address a different place on some OS is refused rather than cleaned up: cleaning is how extractors
// were tricked (node-tar advisories on `C:..`, repeated slashes, backslashes).
import { SvcError } from '@svc-org/ai-sdk';
import { InstallErrorCodes } from './install-error-codes.js';

export const PACKAGE_ROOT = 'package';
const MAX_SEGMENT_BYTES = 255;
const MAX_PATH_BYTES = 4096;

/**
 * Returns the path below the `package/` root ('' for the root folder itself), with a trailing "/"
 * of a folder removed. Throws `artifact_unsafe_path` or, for a path outside the root,
 * `artifact_invalid_metadata`.
 */
export function checkEntryPath(raw: string, isDirectory: boolean): string {
  const unsafe = (rule: string) =>
    new SvcError({
      code: InstallErrorCodes.artifactUnsafePath,
      message: `artifact entry ${JSON.stringify(raw)}: ${rule}`,
      details: { entry: raw },
    });
  if (raw === '') throw unsafe('an empty path');
  if (Buffer.byteLength(raw) > MAX_PATH_BYTES) throw unsafe(`a path longer than ${MAX_PATH_BYTES} bytes`);
  if (/[\u0000-\u001f\u007f]/.test(raw)) throw unsafe('control characters in a path');
  if (raw.includes('\\')) throw unsafe('backslashes are refused (a separator on Windows)');
  if (raw.startsWith('//')) throw unsafe('repeated leading slashes are refused (absolute, or a UNC path on Windows)');
  if (raw.startsWith('/')) throw unsafe('absolute paths are refused');
  if (/^[A-Za-z]:/.test(raw)) throw unsafe('drive letters are refused');
  // A colon elsewhere names an NTFS alternate data stream or a drive-relative path.
  if (raw.includes(':')) throw unsafe('colons are refused');
  const trimmed = isDirectory && raw.endsWith('/') ? raw.slice(0, -1) : raw;
  const segments = trimmed.split('/');
  for (const segment of segments) {
    if (segment === '') throw unsafe('empty path segments ("//") are refused');
    if (segment === '..') throw unsafe('".." segments are refused');
    if (segment === '.') throw unsafe('"." segments are refused');
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) throw unsafe(`a path segment longer than ${MAX_SEGMENT_BYTES} bytes`);
  }
  if (segments[0] !== PACKAGE_ROOT || (segments.length === 1 && !isDirectory)) {
    throw new SvcError({
      code: InstallErrorCodes.artifactInvalidMetadata,
      message: `artifact entry ${JSON.stringify(raw)} is outside the single "${PACKAGE_ROOT}/" root`,
      details: { entry: raw },
    });
  }
  return segments.slice(1).join('/');
}
