export * from './install-token.js';
export * from './server-file.js';
export * from './service-client.js';
