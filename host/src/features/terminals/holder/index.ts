export * from './holder-client.js';
export * from './holder-protocol.js';
export * from './holder-registry.js';
export * from './holder-pool.js';
