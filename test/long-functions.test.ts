// No source function over 80 lines without a reason: each longer one (function, method, accessor,
// arrow or function expression, nested ones included) has a comment containing `long:` and why,
// right above its declaration. Split it instead when it does several things.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const CHECKED = ['host/src', 'app/src', 'harness/src', 'sdk/src', 'catalog/src', 'extension-format/src', 'web/src'];
const MAX_LINES = 80;

interface LongFunction {
  where: string;
  lines: number;
  reason: string | undefined;
  /** `file:line` of the comment that gives the reason. */
  reasonAt: string | undefined;
}

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') files.push(...sourceFiles(path));
    } else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** The node a function's comment sits above: its variable, property or export statement when it has one. */
function declarationOf(node: ts.Node): ts.Node {
  let anchor = node;
  for (;;) {
    const parent = anchor.parent;
    if (ts.isVariableDeclaration(parent) || ts.isVariableDeclarationList(parent) || ts.isVariableStatement(parent)) anchor = parent;
    else if ((ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) || ts.isExportAssignment(parent)) && anchor !== parent.name) anchor = parent;
    else if (ts.isCallExpression(parent) && ts.isVariableDeclaration(parent.parent)) anchor = parent; // const x = wrap(() => …)
    else return anchor;
  }
}

function nameOf(node: ts.Node): string | undefined {
  if (ts.isVariableStatement(node)) return nameOf(node.declarationList.declarations[0]!);
  const name = (node as { name?: ts.Node }).name;
  return name && (ts.isIdentifier(name) || ts.isStringLiteral(name)) ? name.text : undefined;
}

/** The `long:` reason in the comment right above the declaration, and where it is, if there is one. */
function reasonAbove(source: ts.SourceFile, declaration: ts.Node): { reason?: string; reasonAt?: string } {
  const comments = ts.getLeadingCommentRanges(source.text, declaration.getFullStart()) ?? [];
  const last = comments.at(-1);
  if (!last) return {};
  const text = source.text.slice(last.pos, last.end);
  const match = /\blong:\s*(\S.*)/s.exec(text);
  if (!match) return {};
  const line = source.getLineAndCharacterOfPosition(last.pos + match.index).line + 1;
  return { reason: match[1]!.replace(/\s*\*\/$/, '').trim(), reasonAt: `${relative(ROOT, source.fileName)}:${line}` };
}

function longFunctions(path: string, text: string, maxLines = MAX_LINES): LongFunction[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > maxLines) {
        const declaration = declarationOf(node);
        const { reason, reasonAt } = reasonAbove(source, declaration);
        found.push({ where: `${relative(ROOT, path)}:${first + 1} ${nameOf(node) ?? nameOf(declaration) ?? '(anonymous)'}`, lines, reason, reasonAt });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('the walk finds a long arrow function and reads the reason above its declaration', () => {
  const body = Array.from({ length: 5 }, (_, i) => `  const v${i} = ${i};`).join('\n');
  const text = `// long: one table\nexport const table = () => {\n${body}\n};\nfunction short() {\n  return 1;\n}\nclass A {\n  /** Does it. */\n  method() {\n${body}\n  }\n}\n`;
  const found = longFunctions(join(ROOT, 'x.ts'), text, 5);
  expect(found.map((f) => [f.where, f.reason])).toEqual([
    ['x.ts:2 table', 'one table'],
    ['x.ts:14 method', undefined],
  ]);
});

test(`every source function over ${MAX_LINES} lines says why it is long, and only those do`, () => {
  const files = CHECKED.flatMap((dir) => sourceFiles(join(ROOT, dir))).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  const all = files.flatMap(({ file, text }) => longFunctions(file, text));
  const unexplained = all.filter((f) => !f.reason).map((f) => `${f.where} (${f.lines} lines)`);
  expect(unexplained, 'split these, or put a `// long: <why>` comment right above each').toEqual([]);
  // A reason left above a function that was split since, or moved away from its function, is stale.
  const marks = files.flatMap(({ file, text }) => [...text.matchAll(/\/\/ long: /g)].map((m) => `${relative(ROOT, file)}:${text.slice(0, m.index).split('\n').length}`));
  const attached = new Set(all.map((f) => f.reasonAt));
  expect(marks.filter((mark) => !attached.has(mark)), `remove these long: comments, or move each right above its function over ${MAX_LINES} lines`).toEqual([]);
});
