// The host's layering, checked on the import statements themselves: config imports no feature,
// nothing but the CLI imports the CLI, and a module is entered through its index.ts. The composition
// above the host, the app package, wires the modules together and may take any part the host exports.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');

interface Import {
  from: string;
  to: string;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

// A module is named by its folder, whichever layer holds it (platform/db is `db`, adapters/cli is `cli`).
const inLayer = (path: string) => path.replace(/^(platform|features|adapters)\//, '');
const imports: Import[] = files(SRC).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)].map((match) => ({
    from: inLayer(relative(SRC, file)),
    to: inLayer(relative(SRC, normalize(join(dirname(file), match[1]!)))),
  })),
);
const moduleOf = (path: string) => (path.includes('/') ? path.split('/')[0]! : '(root)');

// Direct entries kept on purpose, each with its reason.
const ALLOWED_DIRECT: Record<string, string> = {
  'connections/connection-store.js': 'the host services open the connection store without the settings validator and ajv (startup time)',
  'terminals/signal-dir.js': 'the host services create the signal folder without loading the terminal manager (startup time)',
  'worktrees/worktree-store.js': 'a task read takes the worktree rows without evaluating the worktree operations (startup time)',
  'extensions/runtime/worker-file.js': "the terminal holder's bundle is found as a worker's is, without loading the extension runtime into what imports the terminals",
  'client/service-client.js': 'the CLI reaches the service without loading the HTTP stack that client/index.ts brings (startup time)',
};
// Files of the extension-management area that still reach into other modules; they move with it.
const EXTENSION_AREA = /^(extensions\/|cli\/commands\/ext-)/;

test('config imports no feature module', () => {
  const bad = imports.filter((i) => moduleOf(i.from) === 'config' && !['config', 'db'].includes(moduleOf(i.to)) && !i.to.startsWith('..'));
  expect(bad).toEqual([]);
});

test('nothing outside cli/ imports the CLI (CLI-only helpers live there)', () => {
  const bad = imports.filter((i) => moduleOf(i.to) === 'cli' && moduleOf(i.from) !== 'cli');
  expect(bad).toEqual([]);
});

test('a module is entered through its index.ts', () => {
  const bad = imports.filter((i) => {
    if (i.to.startsWith('..') || moduleOf(i.from) === moduleOf(i.to) || moduleOf(i.to) === '(root)') return false;
    if (/(^|\/)index\.js$/.test(i.to)) return false;
    if (i.to in ALLOWED_DIRECT || EXTENSION_AREA.test(i.from)) return false;
    return true;
  });
  expect(bad.map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
});

test('nothing of the terminal holder is reachable over HTTP or MCP: no adapter imports it', () => {
  const bad = imports.filter((i) => /^(http|mcp)\//.test(i.from) && /^terminals\/holder\//.test(i.to));
  expect(bad).toEqual([]);
  // The holder's socket and protocol are named nowhere in the adapters either.
  const adapters = files(join(SRC, 'adapters')).filter((file) => /[\\/]adapters[\\/](http|mcp)[\\/]/.test(file));
  expect(adapters.length).toBeGreaterThan(0);
  expect(adapters.filter((file) => /holders?\/|terminal-holder|HolderConnection|holderPaths/.test(readFileSync(file, 'utf8')))).toEqual([]);
});
