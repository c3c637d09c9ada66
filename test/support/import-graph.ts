// The import graph of source files, read from the files themselves: every import, re-export, import()
// and require() whose specifier is relative, resolved to the file it names. Type-only imports count:
// a circle of types is still a circle a reader has to walk.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const SOURCE = /\.(ts|tsx|mts|mjs|js|cjs)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'coverage']);

/** Every source file under `dir` (declaration files, build output and dependencies left out). */
export function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    if (SKIPPED_FOLDERS.has(entry) || entry.startsWith('.')) return [];
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return SOURCE.test(entry) && !entry.endsWith('.d.ts') ? [path] : [];
  });
}

/** The source file a relative specifier names (`./x.js` is `./x.ts` in TypeScript sources). */
export function resolveRelative(file: string, specifier: string): string {
  const target = resolve(dirname(file), specifier);
  const candidates = [target, target.replace(/\.(m?)js$/, '.$1ts'), target.replace(/\.js$/, '.tsx'), `${target}.ts`, join(target, 'index.ts')];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile()) ?? target;
}

/** The files one source file imports by a relative specifier, as paths relative to `root` with `/`. */
export function relativeImports(root: string, file: string, text = readFileSync(file, 'utf8')): string[] {
  // The TypeScript scanner skips specifiers inside strings and comments.
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .filter(({ fileName }) => fileName.startsWith('.'))
    .map(({ fileName }) => relative(root, resolveRelative(file, fileName)).split(sep).join('/'));
}

/** file -> the files it imports, every path relative to `root`. */
export function importGraph(root: string, files: readonly string[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files) graph.set(relative(root, file).split(sep).join('/'), new Set(relativeImports(root, file)));
  return graph;
}

/**
 * The import circles of a graph: its strongly connected components of more than one file (or a file
 * that imports itself), each sorted, found with Tarjan's walk.
 */
export function importCircles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)!.has(node)) circles.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return circles;
}
