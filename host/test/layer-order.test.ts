// The order of the layers inside host/src, checked on every import (type-only and dynamic ones
// included): a file may import its own layer and the layers below it, never one above.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { importGraph, sourceFiles } from '../../test/support/import-graph.js';

const SRC = resolve(import.meta.dirname, '../src');

/** The layers from the bottom up, each with the files it holds (paths inside host/src); the first match wins. */
const LAYERS: readonly [name: string, holds: (path: string) => boolean][] = [
  ['platform', (path) => path.startsWith('platform/')],
  ['operation framework', (path) => path.startsWith('operation-framework/')],
  ['features', (path) => path.startsWith('features/')],
  ['host services', (path) => path === 'host-services.ts' || path === 'host-extensions.ts' || path === 'host-plugin.ts'],
  ['operation declarations', (path) => path.startsWith('operations/') || path === 'host-operations.ts'],
  ['client', (path) => path.startsWith('client/')],
  ['adapters', (path) => path.startsWith('adapters/')],
  // Above them all, the composition is a package of its own (@svc-org/app), which the host does not
  // declare: test/package-boundaries.test.ts refuses an import of it from here.
];

const layerOf = (path: string) => LAYERS.findIndex(([, holds]) => holds(path));

/** Every import of a source tree laid out as host/src that runs from a layer up to a higher one. */
function wrongWayImports(src: string): string[] {
  const graph = importGraph(src, sourceFiles(src));
  return [...graph].flatMap(([from, targets]) =>
    [...targets]
      .filter((to) => !to.startsWith('..') && layerOf(to) > layerOf(from))
      .map((to) => `${from} (${LAYERS[layerOf(from)]![0]}) -> ${to} (${LAYERS[layerOf(to)]![0]})`),
  );
}

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

test('every file of host/src belongs to a layer', () => {
  const files = [...importGraph(SRC, sourceFiles(SRC)).keys()];
  expect(files.filter((path) => layerOf(path) === -1)).toEqual([]);
  for (const [name, holds] of LAYERS) expect(files.some(holds), name).toBe(true);
});

test('no import inside host/src runs from a layer up to a higher one', () => {
  expect(wrongWayImports(SRC)).toEqual([]);
});

test('a wrong-way import added to a copy of host/src is found', () => {
  const copy = mkdtempSync(join(tmpdir(), 'svc-layer-order-'));
  scratch.push(copy);
  cpSync(SRC, copy, { recursive: true });
  expect(wrongWayImports(copy)).toEqual([]);
  writeFileSync(join(copy, 'platform/db/upward.ts'), "import type { HostServices } from '../../host-services.js';\nexport type Upward = HostServices;\n");
  writeFileSync(join(copy, 'features/domain/upward.ts'), "export const load = () => import('../../operations/task/index.js');\n");
  expect(wrongWayImports(copy)).toEqual([
    'features/domain/upward.ts (features) -> operations/task/index.ts (operation declarations)',
    'platform/db/upward.ts (platform) -> host-services.ts (host services)',
  ]);
});
