export * from './host-context-protocol.js';
export * from './rpc-messages.js';
export * from './runtime-options.js';
export * from './plugin-storage-store.js';
export * from './call-channel.js';
export * from './extension-runtime.js';
export * from './worker-file.js';
export * from './runtime-settings.js';
