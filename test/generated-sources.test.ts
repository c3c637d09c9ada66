// The files the build derives from the declarations (scripts/generate-sources.mjs: each core group's
// index.ts, the command names, docs/mcp-tools.md) are not tracked: they are the same on every run,
// and what is on disk is what the declarations say now.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
// @ts-expect-error: a build script without type declarations.
import { generatedSources, operationIndexText } from '../scripts/generate-sources.mjs';

const ROOT = resolve(import.meta.dirname, '..');

test('two runs make the same files, and the files on disk are those', { timeout: 60_000 }, async () => {
  const first = (await generatedSources(ROOT)) as Map<string, string>;
  const second = (await generatedSources(ROOT)) as Map<string, string>;
  expect([...second]).toEqual([...first]);
  expect([...first.keys()]).toEqual(expect.arrayContaining(['host/src/operations/task/index.ts', 'app/src/cli/command-names.ts', 'docs/mcp-tools.md']));
  for (const [path, text] of first) expect(readFileSync(join(ROOT, path), 'utf8'), `${path} (run pnpm build)`).toBe(text);
  expect(first.get('docs/mcp-tools.md')).toContain('| `list_tasks` |');
  expect(first.get('app/src/cli/command-names.ts')).toContain("'task list'");
});

test("a group's index exports each operation its files declare, and nothing else", () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-group-index-'));
  try {
    // Written from a template, so that this file declares no operation itself.
    const declared = (name: string) => `export const ${name} = defineOperation({\n});\n`;
    writeFileSync(join(dir, 'count-task.ts'), declared('countTask'));
    writeFileSync(join(dir, 'two-things.ts'), `${declared('b')}${declared('a')}export const Schema = z.object({});\n`);
    writeFileSync(join(dir, 'schemas.ts'), 'export const Schema = z.object({});\n');
    writeFileSync(join(dir, 'index.ts'), declared('stale'));
    const text = operationIndexText(dir) as string;
    expect(text.split('\n').filter((line) => line.startsWith('export'))).toEqual([
      "export { countTask } from './count-task.js';",
      "export { a, b } from './two-things.js';",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
