// Stable snake_case codes of catalog signing and key generation (the build's other codes are in
// catalog-error-codes.ts). Adding one is fine; renaming one breaks publishing scripts.
export const CatalogSigningErrorCodes = {
  /** The key file cannot be read or is not an Ed25519 private key in PEM. */
  signingKeyInvalid: 'catalog_signing_key_invalid',
  /** The key file lies inside the repository being built (or this one): private keys are never committed. */
  signingKeyInRepository: 'catalog_signing_key_in_repository',
  /** The key file can be read by its group or by others. */
  signingKeyExposed: 'catalog_signing_key_exposed',
  indexVersionInvalid: 'catalog_index_version_invalid',
  expiresInvalid: 'catalog_expires_invalid',
  /** SOURCE_DATE_EPOCH is set but is not a positive whole number of seconds. */
  sourceDateEpochInvalid: 'catalog_source_date_epoch_invalid',
  /** The keygen refuses to overwrite a key file. */
  keyFileExists: 'catalog_key_file_exists',
} as const;

export type CatalogSigningErrorCode = (typeof CatalogSigningErrorCodes)[keyof typeof CatalogSigningErrorCodes];
