export * from './create-test-host.js';
export * from './scripted-process.js';
