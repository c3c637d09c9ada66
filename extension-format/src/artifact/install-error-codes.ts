// Stable snake_case codes of catalog fetch, download and archive checks. Each rejection has its own code
// so a user (and a test) can tell exactly why an artifact was refused. Adding one is fine; renaming one
// breaks users' scripts.
export const InstallErrorCodes = {
  /** A catalog or artifact URL (or a redirect) that is not https:. */
  httpsRequired: 'https_required',
  /** Not an absolute URL, or one carrying credentials. */
  urlInvalid: 'url_invalid',
  boundsInvalid: 'install_bounds_invalid',
  catalogFetchFailed: 'catalog_fetch_failed',
  indexTooLarge: 'index_too_large',
  indexInvalid: 'index_invalid',
  artifactDownloadFailed: 'artifact_download_failed',
  artifactTooLarge: 'artifact_too_large',
  artifactSizeMismatch: 'artifact_size_mismatch',
  artifactDigestMismatch: 'artifact_digest_mismatch',
  artifactLifecycleScripts: 'artifact_lifecycle_scripts',
  artifactDependencies: 'artifact_dependencies',
  artifactNativeModule: 'artifact_native_module',
  artifactUnsafePath: 'artifact_unsafe_path',
  artifactLinkOrDevice: 'artifact_link_or_device',
  artifactPathCollision: 'artifact_path_collision',
  artifactTooManyEntries: 'artifact_too_many_entries',
  artifactTooLargeUnpacked: 'artifact_too_large_unpacked',
  artifactInvalidMetadata: 'artifact_invalid_metadata',
  stagingNotEmpty: 'install_staging_not_empty',
} as const;

export type InstallErrorCode = (typeof InstallErrorCodes)[keyof typeof InstallErrorCodes];
