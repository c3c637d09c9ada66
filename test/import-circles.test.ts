// No import circle between the source files of the packages below the UI: a file that imports, through
// any chain (type-only imports, re-exports and import() included), a file that imports it back.
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { importCircles, importGraph, sourceFiles } from './support/import-graph.js';

const ROOT = resolve(import.meta.dirname, '..');
const CHECKED = ['app', 'host', 'harness', 'catalog', 'extension-format', 'sdk'];

test('the walk finds a circle, however long', () => {
  const graph = new Map([
    ['a.ts', new Set(['b.ts'])],
    ['b.ts', new Set(['c.ts', 'd.ts'])],
    ['c.ts', new Set(['a.ts'])],
    ['d.ts', new Set<string>()],
    ['e.ts', new Set(['e.ts'])],
  ]);
  expect(importCircles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
});

test('no import circle in app, host, harness, catalog, extension-format or sdk', () => {
  const graph = importGraph(ROOT, CHECKED.flatMap((dir) => sourceFiles(join(ROOT, dir))));
  expect(graph.size).toBeGreaterThan(500);
  expect(importCircles(graph)).toEqual([]);
});
