export * from './svc-error.js';
export * from './error-codes.js';
export * from './permission-denied-error.js';
export * from './cli-error.js';
export * from './cancelled-error.js';
