export * from './host-context.js';
export * from './read-lines.js';
