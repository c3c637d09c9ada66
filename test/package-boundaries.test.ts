// The workspace packages' boundaries, checked on every import of every source file of the repository:
// a relative import stays inside its own package (or reaches a folder that is no package: the shared
// test support, the JSON Schemas), and a package is imported by its name, at a path its `exports` map
// names, by a package that declares it. So the module system itself refuses the rest: TypeScript,
// esbuild, vitest and Node all resolve a name through `exports` and never reach an unexported file.
// test/package-directions.test.ts then holds which package may import which.
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { packageNameOf, resolveImport, sourceFiles, workspacePackages, type WorkspacePackage } from './support/import-graph.js';

const ROOT = resolve(import.meta.dirname, '..');
const PACKAGES = workspacePackages(ROOT);
const ROOT_PACKAGE: WorkspacePackage = { name: 'svc', dir: ROOT, json: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as WorkspacePackage['json'] };

const posix = (path: string) => path.split(sep).join('/');
/** The innermost workspace package holding a file, or the repository's root package. */
const packageOf = (file: string) => PACKAGES.find((pkg) => file === pkg.dir || file.startsWith(`${pkg.dir}${sep}`)) ?? ROOT_PACKAGE;
const declares = (pkg: WorkspacePackage, name: string) =>
  pkg.name === name || [pkg.json.dependencies, pkg.json.devDependencies, pkg.json.peerDependencies].some((field) => field?.[name] !== undefined);

/** What is wrong with one file's imports, each as `file: 'specifier' why`. */
export function boundaryViolations(file: string, text = readFileSync(file, 'utf8')): string[] {
  const from = packageOf(file);
  const where = posix(relative(ROOT, file));
  // The TypeScript scanner finds import, export-from, import() and require() specifiers, not those in strings or comments.
  return ts.preProcessFile(text, true, true).importedFiles.flatMap(({ fileName: specifier }) => {
    const target = resolveImport(file, specifier, PACKAGES);
    if (specifier.startsWith('.')) {
      const to = packageOf(target!);
      return to !== from && to !== ROOT_PACKAGE ? [`${where}: '${specifier}' crosses into ${to.name} (import it by name)`] : [];
    }
    const name = packageNameOf(specifier);
    // A package's own tests run with the repository's tooling: they may use what the root declares,
    // npm packages and workspace packages (the host's tests drive the app, which the host may not
    // declare: that would be a cycle). test/package-directions.test.ts holds which ones.
    const ownTest = /(^|\/)test\//.test(posix(relative(from.dir, file)));
    if (target === null) return isBuiltin(specifier) || from === ROOT_PACKAGE || ownTest || declares(from, name) ? [] : [`${where}: '${specifier}' is not declared in ${from.name}'s package.json`];
    if (target === undefined) return [`${where}: '${specifier}' is not exported by ${name}`];
    if (!existsSync(target)) return [`${where}: '${specifier}' names ${posix(relative(ROOT, target))}, which does not exist`];
    return declares(from, name) || (ownTest && declares(ROOT_PACKAGE, name)) ? [] : [`${where}: '${specifier}' is not declared in ${from.name}'s package.json`];
  });
}

/** The one module of the app that names the harness: the plugins the host is given. */
const COMPOSITION_POINT = 'app/src/host-plugins.ts';

/**
 * Where a file of the host's or the app's code imports the harness other than as the composition
 * point does (its plugin, `harnessPlugin` from '@svc-org/harness'), each as `file: 'specifier' why`:
 * the host imports nothing of it, the app only its plugin, in that one module.
 */
export function harnessImportsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  const where = posix(relative(ROOT, file));
  if (!where.startsWith('host/src/') && !where.startsWith('app/src/')) return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const bindings = new Map<string, string[]>();
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const named = statement.importClause?.namedBindings;
      const names = named && ts.isNamedImports(named) ? named.elements.map((element) => element.name.text) : ['*'];
      bindings.set(statement.moduleSpecifier.text, [...(bindings.get(statement.moduleSpecifier.text) ?? []), ...names, ...(statement.importClause?.name ? ['default'] : [])]);
    }
  }
  return ts.preProcessFile(text, true, true).importedFiles.flatMap(({ fileName: specifier }) => {
    const target = resolveImport(file, specifier, PACKAGES);
    const harness = PACKAGES.find((pkg) => pkg.name === '@svc-org/harness')!;
    const intoHarness = specifier.startsWith('.') ? target !== null && target !== undefined && packageOf(target) === harness : packageNameOf(specifier) === harness.name;
    if (!intoHarness) return [];
    if (where.startsWith('host/')) return [`${where}: '${specifier}' (the host imports nothing of the harness: ask its plugin, host-plugin.ts)`];
    if (where !== COMPOSITION_POINT) return [`${where}: '${specifier}' (only ${COMPOSITION_POINT} imports the harness)`];
    const names = bindings.get(specifier);
    return specifier === harness.name && names !== undefined && names.every((name) => name === 'harnessPlugin') ? [] : [`${where}: '${specifier}' (the composition point takes the plugin, harnessPlugin, and nothing else)`];
  });
}

const files = sourceFiles(ROOT).filter((file) => !posix(relative(ROOT, file)).split('/').includes('fixtures'));

describe('workspace package boundaries', () => {
  test('app, host, harness and catalog are workspace packages with an exports map', () => {
    const names = PACKAGES.map((pkg) => `${pkg.name} ${posix(relative(ROOT, pkg.dir))}`);
    for (const expected of ['@svc-org/app app', '@svc-org/host host', '@svc-org/harness harness', '@svc-org/catalog catalog', '@svc-org/ai-sdk sdk', '@svc-org/extension-format extension-format']) expect(names).toContain(expected);
    for (const pkg of PACKAGES.filter((candidate) => candidate.name.startsWith('@svc-org/') && candidate.name !== '@svc-org/web')) {
      expect(typeof pkg.json.exports, pkg.name).toBe('object');
    }
    // The app reaches the harness through its one entry.
    expect((PACKAGES.find((pkg) => pkg.name === '@svc-org/harness')!.json.exports as Record<string, string>)['.']).toBe('./src/feature.ts');
  });

  test('every exports entry names a file that exists', () => {
    const missing = PACKAGES.flatMap((pkg) =>
      Object.entries((pkg.json.exports ?? {}) as Record<string, unknown>)
        // A provider's build output (dist/) is there once `pnpm build` ran, as the tests' global setup ensures.
        .filter(([key, value]) => !key.includes('*') && typeof value === 'string' && !existsSync(join(pkg.dir, value)))
        .map(([key, value]) => `${pkg.name} "${key}": ${String(value)}`),
    );
    expect(missing).toEqual([]);
  });

  test('no relative import crosses a package folder, and every package import is exported and declared', () => {
    expect(files.length).toBeGreaterThan(1000);
    expect(files.flatMap((file) => boundaryViolations(file))).toEqual([]);
  });

  test('the host imports nothing of the harness, and the app only its plugin, in the composition point', () => {
    const hostFiles = files.filter((file) => posix(relative(ROOT, file)).startsWith('host/src/'));
    const appFiles = files.filter((file) => posix(relative(ROOT, file)).startsWith('app/src/'));
    expect(hostFiles.length).toBeGreaterThan(300);
    expect(appFiles.length).toBeGreaterThan(10);
    expect([...hostFiles, ...appFiles].flatMap((file) => harnessImportsOf(file))).toEqual([]);
    expect(readFileSync(join(ROOT, COMPOSITION_POINT), 'utf8')).toContain("from '@svc-org/harness'");
    // What the check refuses: any host module (an adapter, the plugin contract, by name, by path or on
    // demand), any other app module, or more than the plugin.
    const probe = (at: string, text: string) => harnessImportsOf(join(ROOT, at), text);
    expect(probe('host/src/adapters/mcp/probe.ts', "import { activeChannels } from '@svc-org/harness';")).toEqual([
      "host/src/adapters/mcp/probe.ts: '@svc-org/harness' (the host imports nothing of the harness: ask its plugin, host-plugin.ts)",
    ]);
    expect(probe('host/src/probe.ts', "import { harnessPlugin } from '@svc-org/harness';")).toHaveLength(1);
    expect(probe('app/src/probe.ts', "import { harnessPlugin } from '@svc-org/harness';")).toEqual([
      "app/src/probe.ts: '@svc-org/harness' (only app/src/host-plugins.ts imports the harness)",
    ]);
    expect(probe('app/src/cli/probe.ts', "import type { HarnessState } from '@svc-org/harness/plugin/harness-state';")).toHaveLength(1);
    expect(probe('app/src/probe.ts', "const load = () => import('@svc-org/harness');")).toHaveLength(1);
    expect(probe('app/src/cli/probe.ts', "import { harnessPlugin } from '../../../harness/src/feature.js';")).toHaveLength(1);
    expect(probe('app/src/host-plugins.ts', "import { harnessPlugin, getBoard } from '@svc-org/harness';")).toEqual([
      "app/src/host-plugins.ts: '@svc-org/harness' (the composition point takes the plugin, harnessPlugin, and nothing else)",
    ]);
    expect(probe('app/src/host-plugins.ts', "import { harnessPlugin } from '@svc-org/harness';")).toEqual([]);
  });

  test('the check refuses a relative import into another package, an unexported path and an undeclared package', () => {
    const probe = (at: string, text: string) => boundaryViolations(join(ROOT, at), text);
    expect(probe('harness/src/probe.ts', "import { openDatabase } from '@svc-org/host/platform/db';")).toEqual([]);
    expect(probe('harness/src/probe.ts', "import { openDatabase } from '../../host/src/platform/db/index.js';")).toEqual([
      "harness/src/probe.ts: '../../host/src/platform/db/index.js' crosses into @svc-org/host (import it by name)",
    ]);
    expect(probe('test/e2e/probe.test.ts', "const load = () => import('../../harness/src/feature.js');")).toEqual([
      "test/e2e/probe.test.ts: '../../harness/src/feature.js' crosses into @svc-org/harness (import it by name)",
    ]);
    expect(probe('app/src/probe.ts', "export { x } from '@svc-org/harness/src/feature.ts';")).toEqual([
      "app/src/probe.ts: '@svc-org/harness/src/feature.ts' is not exported by @svc-org/harness",
    ]);
    expect(probe('catalog/src/probe.ts', "import type { HostServices } from '@svc-org/host/host-services';")).toEqual([
      "catalog/src/probe.ts: '@svc-org/host/host-services' is not declared in @svc-org/catalog's package.json",
    ]);
    expect(probe('catalog/src/probe.ts', "import Koa from 'koa';\nimport { join } from 'node:path';")).toEqual(["catalog/src/probe.ts: 'koa' is not declared in @svc-org/catalog's package.json"]);
    // The host declares neither the harness nor the app: its code cannot import them by name. Its
    // tests may, as the root declares them (which packages they reach: test/package-directions.test.ts).
    expect(probe('host/src/probe.ts', "import { harnessPlugin } from '@svc-org/harness';")).toEqual(["host/src/probe.ts: '@svc-org/harness' is not declared in @svc-org/host's package.json"]);
    expect(probe('host/src/probe.ts', "import { runCli } from '@svc-org/app/run-cli';")).toEqual(["host/src/probe.ts: '@svc-org/app/run-cli' is not declared in @svc-org/host's package.json"]);
    expect(probe('host/test/probe.test.ts', "import { runCli } from '@svc-org/app/run-cli';")).toEqual([]);
    // A package's own files, the shared test support and the JSON Schemas are no other package.
    expect(probe('host/test/probe.test.ts', "import '../src/host-services.js';\nimport '../../test/support/until.js';")).toEqual([]);
    // Strings and comments are not imports.
    expect(probe('host/src/probe.ts', "// import '../../harness/src/feature.js'\nconst path = '../../harness/src/feature.js';")).toEqual([]);
  });
});
