export * from './approval-answers.js';
export * from './approval-operations.js';
export * from './approval-record.js';
export * from './approval-store.js';
export * from './approval-stores.js';
export * from './approval-timeouts.js';
export * from './call-hash.js';
export * from './deliver-approval.js';
