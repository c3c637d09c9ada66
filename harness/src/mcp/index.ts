export * from './tokens/index.js';
