export * from './redactor.js';
export * from './logger.js';
