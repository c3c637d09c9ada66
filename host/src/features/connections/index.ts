export * from './coerce-settings.js';
export * from './connection-record.js';
export * from './connection-store.js';
export * from './validate-provider-config.js';
export * from './present-connection.js';
export * from './split-sensitive-settings.js';
