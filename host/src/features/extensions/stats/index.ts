export * from './latency-buckets.js';
export * from './provider-stats-batch.js';
export * from './provider-stats-recorder.js';
export * from './provider-stats-store.js';
