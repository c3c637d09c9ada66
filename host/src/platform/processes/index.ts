export * from './kill-process-tree.js';
export * from './child-env.js';
export * from './process-supervisor.js';
export * from './process-start-time.js';
export * from './tagged-processes.js';
export * from './session-gate.js';
export * from './format-argv.js';
