// The start-up snapshot of a hardened provider process, built by the host with `node
// --build-snapshot` (provider-snapshot.ts): Node's modules the main uses and the main itself are
// loaded and compiled once, when the snapshot is built, instead of at each launch. What depends on
// the launch (the permission model, fd 3, the provider's entry) is only touched by the main, which
// runs when a launch starts from the snapshot.
import fs from 'node:fs';
import { startupSnapshot } from 'node:v8';
import { PROVIDER_SNAPSHOT_CHECK } from './process-messages.js';
import { startProviderProcess } from './provider-process-main.js';
import { loadEntry } from './require-entry.js';
import type { EntryLoader } from './run-provider-task.js';

// What Node loads on first use that the main, its first call or a provider's import of `node:fs`
// would otherwise load at each start: loaded now, into the snapshot.
for (const lazy of [fs.ReadStream, fs.promises, globalThis.AbortController, globalThis.AbortSignal]) void lazy;

startupSnapshot.setDeserializeMainFunction(() => {
  // The host's check of a snapshot it built, under the launch's own flags: it starts, and says so.
  if (process.argv[1] === PROVIDER_SNAPSHOT_CHECK) {
    process.stdout.write('ok\n');
    return;
  }
  startProviderProcess(snapshotEntryLoader());
});

/**
 * The entry is loaded as in a worker thread (require-entry.ts), but code compiled into a snapshot
 * has no `import()` of its own: where the entry is imported (top-level await, a CommonJS entry), it
 * is through a function compiled at run time (when first needed), with Node's default loader.
 */
function snapshotEntryLoader(): EntryLoader {
  let compiled: ((url: string) => Promise<unknown>) | undefined;
  const importModule = (url: string) => {
    if (!compiled) {
      const vm = process.getBuiltinModule('node:vm');
      compiled = vm.compileFunction('return import(url)', ['url'], { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER }) as (url: string) => Promise<unknown>;
    }
    return compiled(url);
  };
  return (entryPath) => loadEntry(entryPath, importModule);
}
