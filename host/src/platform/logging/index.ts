export * from './redactor.js';
export * from './logger.js';
export * from './rotating-log-file.js';
