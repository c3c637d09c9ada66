// The import graph of source files, read from the files themselves: every import, re-export, import()
// and require() whose specifier is relative or names a workspace package (`@svc-org/host/platform/db`,
// through that package's `exports`), resolved to the file it names. Type-only imports count: a circle
// of types is still a circle a reader has to walk.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const REPO_ROOT = resolve(import.meta.dirname, '../..');

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

/** A workspace package of the repository: its name, its folder and what its `exports` map names. */
export interface WorkspacePackage {
  name: string;
  /** Absolute. */
  dir: string;
  json: { dependencies?: Record<string, string>; devDependencies?: Record<string, string>; peerDependencies?: Record<string, string>; exports?: unknown };
}

/** The folders pnpm-workspace.yaml lists (a trailing `/*` expanded one level) that hold a package.json, innermost first. */
export function workspacePackages(root = REPO_ROOT): WorkspacePackage[] {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const block = /^packages:\n((?:[ \t]+-[^\n]*\n?)+)/m.exec(yaml)?.[1] ?? '';
  const patterns = [...block.matchAll(/-\s*['"]?([^'"\n]+?)['"]?\s*$/gm)].map((match) => match[1]!);
  const dirs = patterns.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [join(root, pattern)];
    const parent = join(root, pattern.slice(0, -2));
    return existsSync(parent) ? readdirSync(parent).map((name) => join(parent, name)) : [];
  });
  return dirs
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => {
      const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as WorkspacePackage['json'] & { name: string };
      return { name: json.name, dir, json };
    })
    .sort((a, b) => b.dir.length - a.dir.length);
}

/** The package name a bare specifier starts with (`@scope/name` or `name`). */
export function packageNameOf(specifier: string): string {
  return specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
}

/** The file an `exports` map names for `subpath` (`.` or `./x`), or undefined when it exports no such path. */
export function resolveExport(pkg: WorkspacePackage, subpath: string): string | undefined {
  const exportsMap = pkg.json.exports;
  if (typeof exportsMap === 'string') return subpath === '.' ? join(pkg.dir, exportsMap) : undefined;
  if (!exportsMap || typeof exportsMap !== 'object') return undefined;
  const targetOf = (value: unknown): string | undefined => {
    if (typeof value === 'string') return value;
    if (value && typeof value === 'object') {
      const conditions = value as Record<string, unknown>;
      return targetOf(conditions.import ?? conditions.default ?? conditions.types);
    }
    return undefined;
  };
  const entries = exportsMap as Record<string, unknown>;
  const exact = targetOf(entries[subpath]);
  if (exact !== undefined) return join(pkg.dir, exact);
  for (const [key, value] of Object.entries(entries)) {
    const target = targetOf(value);
    const star = key.indexOf('*');
    if (star < 0 || target === undefined) continue;
    const [before, after] = [key.slice(0, star), key.slice(star + 1)];
    if (subpath.startsWith(before) && subpath.endsWith(after) && subpath.length >= before.length + after.length) {
      return join(pkg.dir, target.replace('*', subpath.slice(before.length, subpath.length - after.length)));
    }
  }
  return undefined;
}

/**
 * The file a specifier names: a relative one by its path, a workspace package's name through that
 * package's exports (undefined when it exports no such path), anything else (Node, npm packages) null.
 */
export function resolveImport(file: string, specifier: string, packages: readonly WorkspacePackage[] = workspacePackages()): string | undefined | null {
  if (specifier.startsWith('.')) return resolveRelative(file, specifier);
  const name = packageNameOf(specifier);
  const pkg = packages.find((candidate) => candidate.name === name);
  if (!pkg) return null;
  return resolveExport(pkg, `.${specifier.slice(name.length)}`);
}

let defaultPackages: WorkspacePackage[] | undefined;

/** The files one source file imports (relative specifiers and workspace packages), as paths relative to `root` with `/`. */
export function importedFiles(root: string, file: string, text = readFileSync(file, 'utf8')): string[] {
  defaultPackages ??= workspacePackages();
  // The TypeScript scanner skips specifiers inside strings and comments.
  const { importedFiles: specifiers } = ts.preProcessFile(text, true, true);
  return specifiers.flatMap(({ fileName }) => {
    const target = resolveImport(file, fileName, defaultPackages);
    return typeof target === 'string' ? [relative(root, target).split(sep).join('/')] : [];
  });
}

/** file -> the files it imports, every path relative to `root`. */
export function importGraph(root: string, files: readonly string[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files) graph.set(relative(root, file).split(sep).join('/'), new Set(importedFiles(root, file)));
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
