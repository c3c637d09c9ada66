export { getTaskDefaults, setTaskDefaults } from './task-default-operations.js';
