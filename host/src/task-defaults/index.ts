export { TASK_DEFAULT_OPERATIONS } from './task-default-operations.js';
export { withTaskDefaults } from './with-task-defaults.js';
export * from './task-default-store.js';
