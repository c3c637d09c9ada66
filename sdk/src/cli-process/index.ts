export * from './stderr-tail.js';
export * from './redact-secrets.js';
export * from './cli-process.js';
export * from './describe-cli-exit.js';
