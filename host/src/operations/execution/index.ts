export { getExecution } from './get-execution.js';
export { listExecutions } from './list-executions.js';
