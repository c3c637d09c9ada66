export * from './framework.js';
export { ALL_OPERATIONS } from './all-operations.js';
export * as operations from './operation-list.js';
