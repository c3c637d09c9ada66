export * from './finish-reason.js';
export * from './cli-stream-event.js';
export * from './cli-stream-batches.js';
export * from './cli-query-result.js';
export * from './model-info.js';
export * from './collect-cli-query-stream.js';
export * from './end-cli-stream.js';
