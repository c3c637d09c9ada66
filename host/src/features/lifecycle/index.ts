export * from './attention.js';
export * from './execution-end.js';
export * from './task-lifecycle.js';
export * from './task-view.js';
export * from './transitions.js';
export * from './open-approvals.js';
