export { getTaskDefaults, setTaskDefaults, TASK_DEFAULT_OPERATIONS } from './task-default-operations.js';
