export * from './permissions.js';
export * from './extension-id.js';
export * from './package-version.js';
export * from './manifest-schema.js';
export * from './config-schema-dialect.js';
