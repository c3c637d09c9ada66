// Every TypeScript block of the authoring guide (sdk/README.md) type-checks against the SDK as it is,
// each block its own module, with the strict options providers build with: the guide cannot drift
// from the SDK it documents. The blocks are compiled from memory; nothing is written.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const README = join(ROOT, 'sdk/README.md');

/** Each block with its line; one under `<!-- example: src/x.ts -->` is that file (blocks import each other by it). */
function guideBlocks(markdown: string): Array<{ line: number; file: string; code: string }> {
  const blocks: Array<{ line: number; file: string; code: string }> = [];
  for (const match of markdown.matchAll(/^(?:<!-- example: (\S+) -->\n)?```ts\n([\s\S]*?)^```$/gm)) {
    const line = markdown.slice(0, match.index).split('\n').length + (match[1] ? 2 : 1);
    blocks.push({ line, file: match[1] ?? `src/line-${line}.ts`, code: match[2]! });
  }
  return blocks;
}

test('every ts block of sdk/README.md type-checks against the SDK', () => {
  const blocks = guideBlocks(readFileSync(README, 'utf8'));
  expect(blocks.length).toBeGreaterThanOrEqual(8);
  // Virtual files beside the SDK, so `vitest` and `node:` types resolve from the repository.
  const files = new Map(blocks.map((block) => [join(ROOT, 'sdk/readme-blocks', block.file), block.code]));
  const lineOf = new Map(blocks.map((block) => [join(ROOT, 'sdk/readme-blocks', block.file), block.line]));
  expect(files.size).toBe(blocks.length);
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts'],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noUncheckedIndexedAccess: true,
    noImplicitOverride: true,
    isolatedModules: true,
    esModuleInterop: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules/@types')],
    baseUrl: ROOT,
    paths: { '@svc-org/ai-sdk': ['sdk/src/index.ts'], '@svc-org/ai-sdk/testing': ['sdk/src/testing/index.ts'] },
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, onError, create) => {
    const code = files.get(name);
    return code === undefined ? getSourceFile(name, version, onError, create) : ts.createSourceFile(name, code, version, true);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => files.has(name) || fileExists(name);
  const directoryExists = host.directoryExists?.bind(host);
  host.directoryExists = (name) => [...files.keys()].some((file) => file.startsWith(`${name}/`)) || (directoryExists?.(name) ?? true);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => files.get(name) ?? readFile(name);

  const program = ts.createProgram([...files.keys()], options, host);
  // The blocks' own diagnostics and the program's: what getPreEmitDiagnostics answers for these files,
  // without checking the body of every SDK source the blocks import (most of the time the test took).
  const diagnostics = [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...[...files.keys()].flatMap((name) => {
      const source = program.getSourceFile(name)!;
      return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    }),
  ];
  const problems = diagnostics
    .filter((diagnostic) => diagnostic.file === undefined || files.has(diagnostic.file.fileName))
    .map((diagnostic) => {
      const where = diagnostic.file
        ? `sdk/README.md line ${lineOf.get(diagnostic.file.fileName)! + diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line}`
        : 'options';
      return `${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
  expect(problems).toEqual([]);
}, 120_000);

test('the guide answers the questions authors had to guess at, each under its own heading', () => {
  const headings = readFileSync(README, 'utf8').split('\n').filter((line) => line.startsWith('### '));
  for (const question of [
    /coded error/,
    /`capabilities` field/,
    /streaming provider report a warning/,
    /--yes|confirmation_required/,
    /declaration's file name/,
    /tool calls without ids/,
    /error code does a failure line map to/,
  ]) {
    expect(headings.some((heading) => question.test(heading)), String(question)).toBe(true);
  }
});
