// Stable snake_case codes of preflight failures. `svc ext doctor`, the registry's `broken` state and
// scripts read them: adding one is fine, renaming one breaks users.
export const PreflightCodes = {
  artifactModified: 'artifact_modified',
  manifestUnreadable: 'manifest_unreadable',
  manifestMissingSvc: 'manifest_missing_svc',
  manifestVersionUnsupported: 'manifest_version_unsupported',
  apiVersionUnsupported: 'api_version_unsupported',
  kindUnsupported: 'kind_unsupported',
  manifestInvalid: 'manifest_invalid',
  manifestControlCharacter: 'manifest_control_character',
  packageVersionInvalid: 'package_version_invalid',
  catalogVersionMismatch: 'catalog_version_mismatch',
  hostIncompatible: 'host_incompatible',
  nodeIncompatible: 'node_incompatible',
  permissionUnknown: 'permission_unknown',
  integrationFileNotAllowed: 'integration_file_not_allowed',
  entryMissing: 'entry_missing',
  entryOutsidePackage: 'entry_outside_package',
  configSchemaMissing: 'config_schema_missing',
  configSchemaInvalid: 'config_schema_invalid',
  cliNotFound: 'cli_not_found',
  cliProbeFailed: 'cli_probe_failed',
  cliProbeTimeout: 'cli_probe_timeout',
  cliVersionUnreadable: 'cli_version_unreadable',
  cliIncompatible: 'cli_incompatible',
} as const;

export type PreflightCode = (typeof PreflightCodes)[keyof typeof PreflightCodes];
