// The repository's package directions, checked on every import of every source file: each import,
// re-export and dynamic import is resolved to the package it lands in, and an edge the table below
// does not allow fails, as does any cycle between packages. docs/ARCHITECTURE.md draws the same table.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { packageNameOf, resolveImport, sourceFiles as sources, workspacePackages } from './support/import-graph.js';

const ROOT = resolve(process.env.SVC_DIRECTIONS_ROOT ?? join(import.meta.dirname, '..'));

/** The folders checked; root-level test/ (end-to-end tests that drive everything) and scripts/ (build tooling) are not packages. */
const CHECKED = ['sdk', 'extension-format', 'catalog', 'host', 'app', 'harness', 'extensions', 'web'];

/** A file's package, by the first matching prefix (longest first). */
const PACKAGES: readonly [prefix: string, name: string][] = [
  ['app/', 'app'],
  ['host/src/adapters/mcp/', 'host-mcp'],
  ['extensions/catalog/schema/', 'schemas'],
  ['schemas/', 'schemas'],
  ['test/support/', 'test-support'],
  ['sdk/', 'sdk'],
  ['extension-format/', 'extension-format'],
  ['catalog/', 'catalog'],
  ['host/', 'host'],
  ['harness/', 'harness'],
  ['extensions/', 'extensions'],
  ['web/', 'web'],
];
/** The workspace packages, whose names resolve through their `exports` to the file, and so to the part of a package, they land in. */
const WORKSPACE = workspacePackages(ROOT);

/** Which packages each package may import (its own files always). */
const ALLOWED: Record<string, readonly string[]> = {
  sdk: [],
  'extension-format': ['sdk', 'schemas'],
  catalog: ['extension-format', 'sdk', 'schemas'],
  // The host core; `svc catalog build|keygen|serve` and `svc ext pack` run the catalog's publisher code.
  host: ['sdk', 'extension-format', 'catalog', 'schemas'],
  // The composition (@svc-org/app): the CLI's entry and command table, `svc serve`, `svc mcp`, the one
  // registry; the only package that knows the harness, in one module (app/src/host-plugins.ts, which
  // test/package-boundaries.test.ts holds it to). Nothing imports it but the root's tests.
  app: ['host', 'host-mcp', 'harness', 'sdk', 'extension-format', 'catalog', 'schemas'],
  // The MCP adapter mounts the registry's tools and asks the plugins who a caller is (gateway
  // credentials, channels, MCP tokens: `mcpCallers`, host-plugin.ts); it imports nothing of the harness.
  'host-mcp': ['host', 'sdk'],
  harness: ['host', 'sdk'],
  extensions: ['sdk'],
  web: [],
  schemas: [],
};

/**
 * What a package may import for its types only (`import type`, `export type … from`), which the
 * bundler erases: the web UI takes the service's record types from the operations' declarations
 * (web/src/api-types.ts) and ships none of their code to the browser.
 */
const TYPES_ONLY: Record<string, readonly string[]> = {
  web: ['host', 'harness', 'sdk'],
};

/**
 * What a package's own tests (its test/ folder) may import besides what the package may: the shared
 * test support (test/support) and these, each with its reason.
 */
const TESTS_ALSO: Record<string, readonly string[]> = {
  // The host's tests drive the composed host: the CLI's command table, `svc serve`, every operation's faces.
  host: ['app', 'host-mcp', 'harness'],
  // The harness's tools are checked as the one registry of operations (app/src/all-operations.ts)
  // holds them and the MCP adapter lists and describes them.
  harness: ['app', 'host-mcp'],
  // The README's example provider is checked with the installer's own manifest checks.
  sdk: ['extension-format'],
  // A provider's tests run the host's preflight against the provider.
  extensions: ['host', 'extension-format'],
};

/** The one module through which the app reaches the harness. */
const HARNESS_INTERFACE = 'harness/src/feature.ts';

/**
 * Wrong-way imports that remain, by file, each with the packages it reaches and the reason. The list
 * may only shrink: a test fails on an entry that is no longer needed.
 */
const EXCEPTIONS: Record<string, { to: readonly string[]; reason: string }> = {};

interface Edge {
  file: string;
  test: boolean;
  specifier: string;
  from: string;
  to: string;
  target?: string;
  /** Every name the statement brings is a type: `import type`, `export type … from`, or `import { type A }`. */
  typeOnly: boolean;
}

function packageOf(path: string): string | undefined {
  const rel = relative(ROOT, path).split(sep).join('/');
  return PACKAGES.find(([prefix]) => rel.startsWith(prefix))?.[1];
}

/** How many of a file's import statements name each specifier for types only, which the bundler erases. */
function typeOnlySpecifiers(file: string, text: string): Map<string, number> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const erased = new Map<string, number>();
  const erase = (specifier: string) => erased.set(specifier, (erased.get(specifier) ?? 0) + 1);
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      const allTypes =
        clause !== undefined &&
        (clause.isTypeOnly || (clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly)));
      if (allTypes) erase(statement.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.exportClause;
      if (statement.isTypeOnly || (clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly))) erase(statement.moduleSpecifier.text);
    }
  }
  return erased;
}

/** The package edges of one source file, read from `text` (the file on disk unless given). */
export function edgesOf(file: string, text = readFileSync(file, 'utf8')): Edge[] {
  const from = packageOf(file)!;
  const test = /(^|\/)test\//.test(relative(ROOT, file).split(sep).join('/'));
  // The TypeScript scanner finds import, export-from, import() and require() specifiers and skips
  // those inside strings and comments; a specifier is type-only when no statement naming it brings a value.
  const { importedFiles } = ts.preProcessFile(text, true, true);
  const erased = typeOnlySpecifiers(file, text);
  const occurrences = new Map<string, number>();
  for (const { fileName } of importedFiles) occurrences.set(fileName, (occurrences.get(fileName) ?? 0) + 1);
  return importedFiles.flatMap(({ fileName: specifier }) => {
    const typeOnly = (erased.get(specifier) ?? 0) >= occurrences.get(specifier)!;
    const target = resolveImport(file, specifier, WORKSPACE);
    if (typeof target === 'string') {
      const to = packageOf(target);
      return [{ file: relative(ROOT, file), test, specifier, from, to: to ?? `outside (${relative(ROOT, target)})`, target: relative(ROOT, target), typeOnly }];
    }
    const name = packageNameOf(specifier);
    // A workspace package's path it does not export (test/package-boundaries.test.ts names it), or an unknown name of ours.
    if (target === undefined) return [{ file: relative(ROOT, file), test, specifier, from, to: `not exported (${specifier})`, typeOnly }];
    return name.startsWith('@svc-org/') ? [{ file: relative(ROOT, file), test, specifier, from, to: `unknown (${name})`, typeOnly }] : [];
  });
}

export function packageEdges(): Edge[] {
  return CHECKED.flatMap((dir) => sources(join(ROOT, dir))).flatMap((file) => edgesOf(file)).filter((edge) => edge.from !== edge.to);
}

const edges = packageEdges();
const allowed = (edge: Edge) =>
  (ALLOWED[edge.from] ?? []).includes(edge.to) ||
  (edge.typeOnly && (TYPES_ONLY[edge.from] ?? []).includes(edge.to)) ||
  (edge.test && (edge.to === 'test-support' || (TESTS_ALSO[edge.from] ?? []).includes(edge.to))) ||
  (EXCEPTIONS[edge.file]?.to.includes(edge.to) ?? false);
const describeEdge = (edge: Edge) => `${edge.file}: ${edge.from} -> ${edge.to} ('${edge.specifier}')`;

describe('package directions', () => {
  test('the check sees every package and the imports between them', () => {
    const seen = new Set(edges.map((edge) => `${edge.from} -> ${edge.to}`));
    for (const expected of ['catalog -> extension-format', 'host -> extension-format', 'harness -> host', 'extensions -> sdk']) expect(seen).toContain(expected);
  });

  test('every import between packages goes a way the table allows', () => {
    expect(edges.filter((edge) => !allowed(edge)).map(describeEdge)).toEqual([]);
  });

  test("the web UI imports the service's declarations for their types only", () => {
    expect(edges.filter((edge) => edge.from === 'web' && edge.to === 'host').length).toBeGreaterThan(0);
    const probe = join(ROOT, 'web/src/probe.ts');
    const refused = (text: string) => edgesOf(probe, text).filter((edge) => !allowed(edge)).map((edge) => edge.specifier);
    const declaration = '@svc-org/host/operations/task/list-tasks';
    expect(refused(`import type { listTasks } from '${declaration}';`)).toEqual([]);
    expect(refused(`import { type listTasks } from '${declaration}';`)).toEqual([]);
    expect(refused(`export type { listTasks } from '${declaration}';`)).toEqual([]);
    // A value import would bundle the host's code into the browser's.
    expect(refused(`import { listTasks } from '${declaration}';`)).toEqual([declaration]);
    expect(refused(`import { type listTasks, listWorkspaces } from '${declaration}';`)).toEqual([declaration]);
    expect(refused(`import type { listTasks } from '${declaration}';\nimport '${declaration}';`)).toEqual([declaration, declaration]);
    expect(refused(`export { listTasks } from '${declaration}';`)).toEqual([declaration]);
    expect(refused(`const load = () => import('${declaration}');`)).toEqual([declaration]);
    expect(refused(`import type { Catalog } from '@svc-org/catalog';`)).toEqual(['@svc-org/catalog']);
  });

  test('the web bundle holds none of the host, harness or SDK code', async () => {
    const result = await build({
      absWorkingDir: ROOT,
      entryPoints: [join(ROOT, 'web/src/main.tsx')],
      bundle: true,
      // Nothing is written: the output path only names the CSS files the entry imports.
      write: false,
      outdir: join(ROOT, 'web/dist/assets'),
      metafile: true,
      platform: 'browser',
      format: 'esm',
      jsx: 'automatic',
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((input) => input.startsWith('web/src/pages/'))).toBe(true);
    expect(inputs.filter((input) => !input.startsWith('web/') && !input.includes('node_modules/') && !input.startsWith('../node_modules/'))).toEqual([]);
    expect(inputs.filter((input) => /node_modules\/(\.pnpm\/)?(zod|@svc-org)[@/]/.test(input))).toEqual([]);
  });

  test('the host imports neither the harness nor the app, and the app reaches the harness only through its interface module', () => {
    const wrong = edges.filter(
      (edge) => !edge.test && ((edge.from.startsWith('host') && (edge.to === 'harness' || edge.to === 'app')) || (edge.from === 'app' && edge.to === 'harness' && edge.target !== HARNESS_INTERFACE)),
    );
    expect(wrong.map(describeEdge)).toEqual([]);
    expect(edges.some((edge) => edge.from === 'app' && edge.target === HARNESS_INTERFACE)).toBe(true);
  });

  // What pnpm links is what Node, TypeScript, esbuild and vitest can resolve: a package that does not
  // declare another cannot import it by name (test/package-boundaries.test.ts refuses a relative way
  // round). So the declared dependencies are the directions too: app -> harness -> host -> sdk, with
  // no cycle (a package's tests take the packages above it from the root's declarations).
  test('the workspace packages declare dependencies one way: app -> harness -> host -> sdk, no cycle', () => {
    const declared = new Map(
      WORKSPACE.map((pkg) => [pkg.name, Object.keys({ ...pkg.json.dependencies, ...pkg.json.devDependencies, ...pkg.json.peerDependencies }).filter((name) => WORKSPACE.some((other) => other.name === name))]),
    );
    const dependsOn = (name: string) => declared.get(name) ?? [];
    expect(dependsOn('@svc-org/host').filter((name) => name === '@svc-org/harness' || name === '@svc-org/app')).toEqual([]);
    expect(dependsOn('@svc-org/app')).toEqual(expect.arrayContaining(['@svc-org/harness', '@svc-org/host']));
    expect(dependsOn('@svc-org/harness')).toContain('@svc-org/host');
    expect(dependsOn('@svc-org/host')).toContain('@svc-org/ai-sdk');
    expect(dependsOn('@svc-org/harness')).not.toContain('@svc-org/app');
    const cycles: string[] = [];
    const visit = (name: string, path: string[]) => {
      for (const next of dependsOn(name)) {
        if (next === path[0]) cycles.push([...path, next].join(' -> '));
        else if (!path.includes(next) && next > path[0]!) visit(next, [...path, next]);
      }
    };
    for (const name of [...declared.keys()].sort()) visit(name, [name]);
    expect(cycles).toEqual([]);
    // pnpm is not told to overlook one.
    expect(readFileSync(join(ROOT, 'pnpm-workspace.yaml'), 'utf8')).not.toMatch(/ignoreWorkspaceCycles/);
  });

  test('every listed exception is still needed', () => {
    const needed = (file: string, to: string) => edges.some((edge) => edge.file === file && edge.to === to && !(ALLOWED[edge.from] ?? []).includes(to));
    const stale = Object.entries(EXCEPTIONS).flatMap(([file, { to }]) => to.filter((target) => !needed(file, target)).map((target) => `${file} -> ${target}`));
    expect(stale).toEqual([]);
  });

  // Between the packages as shipped (tests left out), and without the listed exceptions: those are
  // the cycles still to cut, each named above.
  test('no cycle between packages', () => {
    const graph = new Map<string, Set<string>>();
    for (const edge of edges.filter((e) => !e.test && !EXCEPTIONS[e.file]?.to.includes(e.to))) {
      if (!graph.has(edge.from)) graph.set(edge.from, new Set());
      graph.get(edge.from)!.add(edge.to);
    }
    const cycles: string[] = [];
    const visit = (node: string, path: string[]) => {
      for (const next of graph.get(node) ?? []) {
        if (next === path[0]) cycles.push([...path, next].join(' -> '));
        else if (!path.includes(next) && next > path[0]!) visit(next, [...path, next]);
      }
    };
    for (const node of [...graph.keys()].sort()) visit(node, [node]);
    expect(cycles).toEqual([]);
  });
});
