export * from './host-context.js';
export * from './read-lines.js';
export * from './line-splitter.js';
export * from './abort-reason.js';
export * from './provider-env-patch.js';
