// Runs as a hardened provider process (see process-pool.ts) when no start-up snapshot of it is
// used (provider-snapshot.ts): the same main, loaded and compiled at each start.
import { startProviderProcess } from './provider-process-main.js';
import { loadEntry } from './require-entry.js';

startProviderProcess(loadEntry);
