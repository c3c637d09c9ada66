export { dailySummary } from './daily-summary-operation.js';
export { dailyTodo } from './daily-todo-operation.js';
