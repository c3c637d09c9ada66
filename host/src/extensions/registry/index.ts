export * from './extension-record.js';
export * from './extension-registry.js';
