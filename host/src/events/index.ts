export * from './domain-event.js';
export * from './event-store.js';
export * from './event-worker.js';
