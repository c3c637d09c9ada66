export { createTask } from './create-task.js';
export { deleteTask } from './delete-task.js';
export { getTask } from './get-task.js';
export { listTasks } from './list-tasks.js';
export { moveTask } from './move-task.js';
export { setTaskLabels } from './set-task-labels.js';
export { updateTask } from './update-task.js';
