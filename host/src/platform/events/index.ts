export * from './domain-event.js';
export * from './event-crash-point.js';
export * from './event-store.js';
export * from './event-worker.js';
