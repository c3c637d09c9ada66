export { createWorkspace } from './create-workspace.js';
export { deleteWorkspace } from './delete-workspace.js';
export { getWorkspace } from './get-workspace.js';
export { listWorkspaces } from './list-workspaces.js';
export { updateWorkspace } from './update-workspace.js';
