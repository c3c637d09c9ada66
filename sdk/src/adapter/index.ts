export * from './unsupported-attachment.js';
export * from './session-process.js';
export * from './requests.js';
export * from './cli-adapter.js';
export * from './base-cli-adapter.js';
export * from './streaming-cli-adapter.js';
export * from './define-cli-plugin.js';
export * from './config-location-env.js';
