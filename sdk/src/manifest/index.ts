export * from './permissions.js';
export * from './extension-id.js';
export * from './manifest-schema.js';
export * from './config-schema-dialect.js';
