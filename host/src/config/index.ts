export * from './host-version.js';
export * from './read-system-config.js';
export * from './svc-home.js';
export * from './system-config-key.js';
export * from './system-config-keys.js';
export * from './system-config-store.js';
export * from './node-line.js';
export * from './svc-home-overlap.js';
