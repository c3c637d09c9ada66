export { TASK_VERSION_OPERATIONS } from './task-version-operations.js';
export * from './task-version-store.js';
