export * from './errors/index.js';
export * from './manifest/index.js';
export * from './events/index.js';
export * from './host-context/index.js';
export * from './adapter/index.js';
export * from './cli-process/index.js';
export * from './protocol/v1/index.js';
