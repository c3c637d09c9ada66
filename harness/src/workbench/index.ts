export * from './render-review-batch.js';
export * from './workbench-event-consumer.js';
export * from './workbench-event.js';
export * from './workbench-operations.js';
export * from './workbench-store.js';
export * from './workbench-worker.js';
export * from './report-task-overlap.js';
