export * from './preflight-codes.js';
export * from './check-result.js';
export * from './check-manifest.js';
export * from './check-permissions.js';
export * from './cli-config-files.js';
export * from './check-entry.js';
export * from './check-config-schema.js';
