export * from './completion-script.js';
export * from './completion-spec.js';
export * from './live-completion-values.js';
