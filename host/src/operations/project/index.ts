export { createProject } from './create-project.js';
export { deleteProject } from './delete-project.js';
export { getProject } from './get-project.js';
export { listProjects } from './list-projects.js';
export { updateProject } from './update-project.js';
