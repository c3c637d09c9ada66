export * from './capability-catalog.js';
export * from './capability-operations.js';
