export * from './outbox-entry.js';
export * from './outbox-store.js';
export * from './outbox-worker.js';
export * from './retry-delay.js';
export * from './send-due-messages.js';
export * from './start-harness.js';
