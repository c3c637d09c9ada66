export * from './extension-record.js';
export * from './extension-registry.js';
export * from './extension-version-store.js';
export * from './extension-crash-log.js';
