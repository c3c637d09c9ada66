// Stable snake_case codes of catalog operations (install, update, rollback, uninstall) and of the HTTP
// refusals of locations. Artifact and download rejections keep their own codes (InstallErrorCodes), and
// preflight failures theirs (PreflightCodes). Adding a code is fine; renaming one breaks users' scripts.
export const CatalogInstallCodes = {
  /** Not `<id>@<version>`, or an id that is not `<publisher>.<name>` in lowercase [a-z0-9-]. */
  releaseSpecInvalid: 'release_spec_invalid',
  /** A range, a tag such as `latest`, or no version at all: installs take exact versions only. */
  exactVersionRequired: 'exact_version_required',
  /** Neither SVC_EXTENSION_CATALOG_URL nor the system-config key extensions.catalogUrl is set. */
  catalogNotConfigured: 'catalog_not_configured',
  extensionNotInCatalog: 'extension_not_in_catalog',
  versionNotInCatalog: 'version_not_in_catalog',
  /** Install of an id that is already registered (any source); an installed one is updated instead. */
  extensionExists: 'extension_exists',
  versionAlreadyCurrent: 'version_already_current',
  /** `svc ext update <id>` without a version, and no version in the index is compatible with this host, Node.js and the CLI. */
  noCompatibleVersion: 'no_compatible_version',
  /** Update, rollback or uninstall of a built-in or developer registration. */
  notCatalogExtension: 'not_a_catalog_extension',
  noPreviousVersion: 'no_previous_version',
  /** Another process is installing, updating, rolling back or uninstalling this extension. */
  operationInProgress: 'extension_operation_in_progress',
  /** The catalog now lists different bytes for a version this host already holds. */
  artifactNotImmutable: 'artifact_not_immutable',
  /** The permissions the index lists for a version differ from those its artifact's manifest requests. */
  indexManifestMismatch: 'index_manifest_mismatch',
  /** A second rollback: the last operation already rolled back from this version. */
  alreadyRolledBack: 'already_rolled_back',
  /** Uninstall of a provider that connections still use, without `--force`. */
  connectionsLeft: 'extension_has_connections',
  /** HTTP: a request carried a catalog (index) URL. */
  catalogUrlNotAccepted: 'catalog_url_not_accepted',
  /** HTTP: a request carried an artifact URL. */
  artifactUrlNotAccepted: 'artifact_url_not_accepted',
  /** HTTP: a request carried a local path (or a file: URL). */
  localPathNotAccepted: 'local_path_not_accepted',
} as const;

export type CatalogInstallCode = (typeof CatalogInstallCodes)[keyof typeof CatalogInstallCodes];
