export * from './create-test-host.js';
export * from './scripted-process.js';
export * from './real-process.js';
