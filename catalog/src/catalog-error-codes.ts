// Stable snake_case codes of the catalog build. Adding one is fine; renaming one breaks publishing scripts.
export const CatalogErrorCodes = {
  usage: 'catalog_usage',
  baseUrlInvalid: 'catalog_base_url_invalid',
  baseUrlNotHttps: 'catalog_base_url_not_https',
  baseUrlNoPath: 'catalog_base_url_no_path',
  schemaInvalid: 'catalog_schema_invalid',
  declarationInvalid: 'catalog_declaration_invalid',
  duplicateVersion: 'catalog_duplicate_version',
  providerMissing: 'catalog_provider_missing',
  manifestInvalid: 'catalog_manifest_invalid',
  declarationMismatch: 'catalog_declaration_mismatch',
  providerCheckFailed: 'catalog_provider_check_failed',
  packInvalid: 'catalog_pack_invalid',
  indexInvalid: 'catalog_index_invalid',
  outputNotEmpty: 'catalog_output_not_empty',
  /** An output file of `svc ext pack` is a symbolic link: svc never writes through one. */
  outputIsLink: 'catalog_output_is_link',
  /** `svc catalog build --artifacts` names a folder without packed artifacts. */
  noArtifacts: 'catalog_no_artifacts',
  /** `svc catalog serve` of an index built for another address than 127.0.0.1 / localhost with a port. */
  serveNotLocal: 'catalog_serve_not_local',
  /** `svc catalog serve` cannot listen on the port the index names. */
  servePortInUse: 'catalog_serve_port_in_use',
  /** `svc catalog serve` cannot make its self-signed certificate (no openssl command). */
  serveCertificateFailed: 'catalog_serve_certificate_failed',
} as const;

export type CatalogErrorCode = (typeof CatalogErrorCodes)[keyof typeof CatalogErrorCodes];
