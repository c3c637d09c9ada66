export * from './catalog-trust-codes.js';
export * from './catalog-trust.js';
export * from './parse-catalog-keys.js';
export * from './verify-index-signature.js';
export * from './check-index-freshness.js';
export * from './catalog-index-versions.js';
export * from './fetch-index-signature.js';
export * from './fetch-trusted-catalog-index.js';
