// Every operation by its exported name, for adapters that want one typed (e.g. `operations.getTask`).
export * from './connection/index.js';
export * from './execution/index.js';
export * from './extension/index.js';
export * from './hook/index.js';
export * from './label/index.js';
export * from './project/index.js';
export * from './task/index.js';
export * from './terminal/index.js';
export * from './workspace/index.js';
export * from './worktree/index.js';
