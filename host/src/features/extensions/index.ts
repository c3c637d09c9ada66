export * from './builtin-providers.js';
export * from './permission-prompt.js';
export * from './extension-description.js';
export * from './extension-service.js';
