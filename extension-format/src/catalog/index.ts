export * from './catalog-index.js';
export * from './catalog-key-id.js';
export * from './catalog-public-key-pin.js';
