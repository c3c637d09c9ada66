export { listTaskVersions, restoreTaskVersion } from './task-version-operations.js';
export * from './task-version-store.js';
