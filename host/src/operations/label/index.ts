export { createLabel } from './create-label.js';
export { deleteLabel } from './delete-label.js';
export { getLabel } from './get-label.js';
export { listLabels } from './list-labels.js';
export { updateLabel } from './update-label.js';
