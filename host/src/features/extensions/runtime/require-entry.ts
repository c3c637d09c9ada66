// How a provider's worker thread loads the provider's entry: through require() where Node loads an
// ES module that way, which is the same module, evaluated once, without Node's asynchronous ES
// module loader (its first import() in a thread sets up promise-based file reads and module jobs,
// about as much CPU as the rest of the provider's load).
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { types } from 'node:util';

/**
 * Node loads an ES module through require() from 20.19, 22.12 and 23.0 on, and without printing an
 * experimental warning from 20.19, 22.13 and 23.5 on: earlier, the entry is imported.
 */
export function requireLoadsModules(version: string = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major === 20) return minor >= 19;
  if (major === 22) return minor >= 13;
  if (major === 23) return minor >= 5;
  return major > 23;
}

/**
 * The errors require() refuses an entry with before evaluating any of it: an ES module graph with
 * top-level await, or a Node (or `--no-experimental-require-module`) that does not load ES modules
 * so. The entry is then imported, as it always was.
 */
const REFUSED_BY_REQUIRE = new Set(['ERR_REQUIRE_ASYNC_MODULE', 'ERR_REQUIRE_ESM']);

const SYNC = requireLoadsModules() && (process.features as { require_module?: boolean }).require_module !== false;

/** What `import()` reads as JavaScript by its extension alone; another extension is left to it. */
const SCRIPT_EXTENSION = /\.m?js$/;

/**
 * The entry's module namespace. An entry require() gives something else (a CommonJS entry, or an ES
 * module exporting 'module.exports') is then imported: Node reuses the module require() evaluated,
 * and the namespace is the one `import()` always gave. `importModule` is that import (code run from
 * a start-up snapshot brings its own, process-snapshot.ts).
 */
export async function loadEntry(entryPath: string, importModule: (url: string) => Promise<unknown> = (url) => import(url)): Promise<Record<string, unknown>> {
  if (SYNC && SCRIPT_EXTENSION.test(entryPath)) {
    try {
      const loaded: unknown = createRequire(entryPath)(entryPath);
      if (types.isModuleNamespaceObject(loaded)) return loaded as Record<string, unknown>;
    } catch (error) {
      if (!REFUSED_BY_REQUIRE.has((error as { code?: unknown })?.code as string)) throw error;
    }
  }
  return (await importModule(pathToFileURL(entryPath).href)) as Record<string, unknown>;
}
