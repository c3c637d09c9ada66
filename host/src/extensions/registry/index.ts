export * from './extension-record.js';
export * from './extension-registry.js';
export * from './extension-version-store.js';
