export * from '@svc-org/extension-format/artifact';
export * from './parse-https-url.js';
export * from './redact-url.js';
export * from './https-get.js';
export * from './validate-catalog-index.js';
export * from './fetch-catalog-index.js';
export * from './download-artifact.js';
export type { CatalogArtifact, CatalogExtension, CatalogIndex, CatalogVersion } from '@svc-org/extension-format/catalog';
