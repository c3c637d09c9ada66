#!/usr/bin/env node
// `pnpm build`: bundles the host (CLI + worker bootstrap) and every provider under extensions/.
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire, isBuiltin } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { buildProvider } from './build-provider.mjs';
import { writeDatabaseTemplate } from './write-database-template.mjs';
import { generateSources } from './generate-sources.mjs';
import { importSources } from './import-sources.mjs';

const root = resolve(import.meta.dirname, '..');

// The files derived from the declarations (the core groups' index.ts, the command names, docs/mcp-tools.md): the bundles import them.
await generateSources(root);

/**
 * A plugin's generated module, computed once per `pnpm build`: the host is bundled twice (the ES
 * modules, then their script variants for Node 20) from the same sources.
 */
const generated = new Map();
const once = (name, make) => {
  if (!generated.has(name)) generated.set(name, make());
  return generated.get(name);
};

/**
 * The preflight's JSON Schema validators (schemas/*.json) are compiled here, once, with ajv's
 * standalone code generation, instead of at every `svc` start. Same schemas, same ajv options as
 * extension-format's manifest/schema-validators.ts, which tests and source runs keep compiling at run time.
 */
const precompiledSchemaValidators = {
  name: 'precompiled-schema-validators',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /extension-format[\\/]src[\\/]manifest[\\/]schema-validators\.ts$/ }, (args) =>
      once('schema-validators', async () => {
        const { default: Ajv2020 } = await import('ajv/dist/2020.js');
        const { default: standaloneCode } = await import('ajv/dist/standalone/index.js');
        const read = async (name) => JSON.parse(await readFile(join(root, 'schemas', name), 'utf8'));
        const ajv = new Ajv2020({ allErrors: true, strict: true, code: { source: true, esm: true } });
        ajv.addSchema(await read('manifest.v1.schema.json'), 'manifest');
        ajv.addSchema(await read('config-schema.v1.schema.json'), 'configSchemaDialect');
        const code = standaloneCode(ajv, { manifestValidator: 'manifest', configSchemaDialectValidator: 'configSchemaDialect' });
        return {
          contents: `${code}\nexport const schemaValidators = { manifest: () => manifestValidator, configSchemaDialect: () => configSchemaDialectValidator };\n`,
          loader: 'js',
          resolveDir: dirname(args.path),
        };
      }),
    );
  },
};

/**
 * A provider's config schema is checked against the JSON Schema 2020-12 meta-schema: that validator
 * is generated here with ajv's standalone code generation, with the options of the module it
 * replaces (extension-format's manifest/json-schema-meta-validator.ts, which tests and source runs
 * keep compiling at run time), instead of ajv compiling the meta-schema at every start that checks one.
 */
const precompiledMetaSchemaValidator = {
  name: 'precompiled-meta-schema-validator',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /extension-format[\\/]src[\\/]manifest[\\/]json-schema-meta-validator\.ts$/ }, (args) =>
      once('meta-schema-validator', async () => {
        const { default: Ajv2020 } = await import('ajv/dist/2020.js');
        const { default: standaloneCode } = await import('ajv/dist/standalone/index.js');
        const { options, id } = await importSources(
          root,
          "export { PLUGIN_SCHEMA_AJV_OPTIONS as options } from './extension-format/src/manifest/plugin-schema-ajv-options.ts';\n" +
            "export { JSON_SCHEMA_2020_12 as id } from './extension-format/src/manifest/json-schema-meta-validator.ts';",
          'meta-schema-options',
        );
        const ajv = new Ajv2020({ ...options, code: { source: true, esm: true } });
        const code = standaloneCode(ajv, { metaSchemaValidator: id });
        return {
          contents: `${code}\nexport const JSON_SCHEMA_2020_12 = ${JSON.stringify(id)};\nexport function jsonSchemaMetaValidator() { return metaSchemaValidator; }\n`,
          loader: 'js',
          resolveDir: dirname(args.path),
        };
      }),
    );
  },
};

/**
 * `import process from 'node:process'` (the MCP SDK's stdio transport does it) makes Node build the
 * module's ESM facade, which reads every property of `process`, `allowedNodeEnvironmentFlags` among
 * them: Node then parses the option table of every flag it has, a large share of `svc mcp`'s start.
 * The bundles take the global `process` instead: the same object, without the facade.
 */
const globalProcess = {
  name: 'global-process',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^(node:)?process$/ }, () => ({ path: 'process', namespace: 'global-process' }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'global-process' }, () => ({
      contents: 'export default globalThis.process;\n',
      loader: 'js',
    }));
  },
};

/**
 * zod sets its English messages at import and exports its other 63 locales on `z.locales`, which
 * nothing of svc calls: bundled, they were a tenth of the CLI's code, compiled at every start. The
 * bundles keep `z.locales.en` only.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer) ? { path: join(dirname(args.importer), '../locales/index.js'), namespace: 'zod-english-only' } : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: 'export { default as en } from "./en.js";\n',
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * `svc mcp` answers tools/list with JSON Schemas converted from some sixty operations' zod schemas:
 * converted here, once, from the same declarations (the MCP adapter's own toolListing), instead of
 * at every start. Source runs and tests keep converting at run time.
 */
const prebuiltToolListings = {
  name: 'prebuilt-tool-listings',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /host[\\/]src[\\/]adapters[\\/]mcp[\\/]prebuilt-tool-listings\.ts$/ }, () => once('tool-listings', async () => {
      const { listings, profiles } = await importSources(
        root,
        // Imported, not import-declared: every module then initialises through esbuild's lazy wrapper,
        // as in the svc bundle (the host services import the extension machinery on use).
        "const { ALL_OPERATIONS } = await import('./app/src/all-operations.ts');\n" +
          "const { toolListing } = await import('./host/src/adapters/mcp/create-mcp-server.ts');\n" +
          "const { CapabilityDefinition } = await import('./host/src/adapters/mcp/capability-definition.ts');\n" +
          "const { MCP_PROFILES, parseMcpProfile } = await import('./host/src/operation-framework/index.ts');\n" +
          'const definition = new CapabilityDefinition(ALL_OPERATIONS.list());\n' +
          'export const listings = Object.fromEntries(definition.all().map((operation) => [operation.name, toolListing(operation)]));\n' +
          'export const profiles = { tools: Object.fromEntries(MCP_PROFILES.map((profile) => [profile, definition.toolsOf(profile).map((tool) => tool.name)])), unset: parseMcpProfile(undefined) };',
        'tool-listings',
      );
      return {
        contents: `export const PREBUILT_TOOL_LISTINGS = ${JSON.stringify(listings)};\nexport const PREBUILT_PROFILES = ${JSON.stringify(profiles)};\n`,
        loader: 'js',
      };
    }));
  },
};

/**
 * An ESM bundle imports every Node built-in and external package it uses at its top: each one loads
 * at every start, whichever command runs, and for each built-in Node builds an ESM facade that reads
 * every export (on Node 24, node:http's facade loads undici for it). Taken through `require` instead,
 * a built-in or external package loads when the first module that uses it is evaluated (a command's
 * module loads when the command runs), and without a facade. `process` keeps its own plugin above.
 */
const EXTERNAL_PACKAGES = ['node-pty', 'piscina'];

/**
 * libsql's index.js is bundled (it stays lazy: the module that opens a database requires it when it
 * is evaluated) with the two packages it asks which native package to load taken from
 * host/src/platform/db/libsql-native-target.ts: @neon-rs/load answers with a full diagnostic report
 * (`process.report.getReport()`, several milliseconds at every start) and detect-libc loads
 * `node:child_process` at its top. The native package itself is required from libsql's own folder at
 * run time. A libsql whose index.js no longer asks them the same way fails the build here.
 */
const libsqlNativeTarget = join(root, 'host/src/platform/db/libsql-native-target.ts');
const libsqlIndex = createRequire(join(root, 'package.json')).resolve('libsql');
const libsqlWithoutProbes = {
  name: 'libsql-without-probes',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^libsql$/ }, () => ({ path: libsqlIndex }));
    pluginBuild.onLoad({ filter: /[\\/]libsql[\\/]index\.js$/ }, async (args) => {
      if (args.path !== libsqlIndex) return undefined;
      const target = `require(${JSON.stringify(libsqlNativeTarget)})`;
      let contents = await readFile(args.path, 'utf8');
      for (const [from, to] of [
        ['require("@neon-rs/load")', target],
        ['require("detect-libc")', target],
        ['require(`@libsql/${target}`)', `${target}.requireFromLibsql(\`@libsql/\${target}\`)`],
      ]) {
        if (contents.split(from).length !== 2) throw new Error(`${args.path} no longer says ${from} once: update the libsql-without-probes plugin`);
        contents = contents.replace(from, () => to);
      }
      return { contents, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};
const requiredOnUse = {
  name: 'required-on-use',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^(node:)?[a-z0-9_]+(\/[a-z0-9_]+)?$|^(node-pty|piscina)$/ }, (args) => {
      if (!isBuiltin(args.path) && !EXTERNAL_PACKAGES.includes(args.path)) return undefined;
      // The wrapper's own require of it stays a run-time require.
      if (args.namespace === 'required-on-use') return { path: args.path, external: true };
      return { path: args.path, namespace: 'required-on-use' };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: 'required-on-use' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});\n`,
      loader: 'js',
    }));
  },
};

/**
 * Host code imports `SvcError` from the SDK's index, and an index that re-exports the whole SDK
 * evaluates all of it: the manifest's, the protocol's and the events' zod schemas were built at
 * every start, `svc task list` included, which uses none of them. In the host bundles, an import of
 * values from '@svc-org/ai-sdk' names the SDK files that declare them instead (every SDK file but an
 * index declares what it exports), so a command evaluates the SDK modules it uses. Type imports stay.
 */
const sdkSource = join(root, 'sdk/src');
/** Where each SDK value is declared (null: declared twice, left to the index), and the SDK's type names. */
function sdkDeclarationsIn(dir, found = { values: new Map(), types: new Set() }) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'testing') sdkDeclarationsIn(path, found);
    } else if (entry.name.endsWith('.ts') && entry.name !== 'index.ts' && !entry.name.endsWith('.d.ts')) {
      const text = readFileSync(path, 'utf8');
      for (const [, name] of text.matchAll(/^export (?:abstract )?(?:async )?(?:const|let|class|function\*?) ([A-Za-z_$][\w$]*)/gm)) {
        found.values.set(name, found.values.has(name) ? null : path);
      }
      for (const [, name] of text.matchAll(/^export (?:type|interface) ([A-Za-z_$][\w$]*)/gm)) found.types.add(name);
    }
  }
  return found;
}
const sdkDeclarations = sdkDeclarationsIn(sdkSource);
/** A host module's source with its SDK imports naming the declaring files; undefined when it has none to rewrite. */
function sdkImportsRewritten(source) {
  if (!source.includes("from '@svc-org/ai-sdk';")) return undefined;
  // The imports before the module's first declaration: a template's text further down is left alone.
  const head = source.slice(0, source.search(/^(?:export|const|let|var|function|class|async|interface|type|declare|enum|abstract) /m) >>> 0);
  const contents = head.replace(/^import \{([^}]*)\} from '@svc-org\/ai-sdk';$/gm, (statement, list) => {
    const types = [];
    const byFile = new Map();
    for (const specifier of list.split(',').map((part) => part.trim()).filter(Boolean)) {
      if (specifier.startsWith('type ')) {
        types.push(specifier);
        continue;
      }
      const name = specifier.split(/\s+as\s+/)[0];
      const file = sdkDeclarations.values.get(name);
      if (file) byFile.set(file, [...(byFile.get(file) ?? []), specifier]);
      else if (file === undefined && sdkDeclarations.types.has(name)) types.push(`type ${specifier}`);
      // A name this scan does not place: the statement stays as it was.
      else return statement;
    }
    // As many lines as the statement had: the source map still places the lines after it.
    return [
      ...(types.length > 0 ? [`import { ${types.join(', ')} } from '@svc-org/ai-sdk';`] : []),
      ...[...byFile].map(([file, names]) => `import { ${names.join(', ')} } from ${JSON.stringify(file)};`),
    ].join(' ') + '\n'.repeat(statement.split('\n').length - 1);
  });
  return contents === head ? undefined : contents + source.slice(head.length);
}
const sdkImportsByModule = {
  name: 'sdk-imports-by-module',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/](host|harness|app)[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const contents = sdkImportsRewritten(await readFile(args.path, 'utf8'));
      return contents === undefined ? undefined : { contents, loader: 'ts', resolveDir: dirname(args.path) };
    });
  },
};

/**
 * `import { z } from 'zod'` takes zod's namespace object (`z` is `export * as z`): esbuild then builds
 * it at the start, a getter for each of its exports, and every `z.object(...)` reads it through that
 * getter. In the CLI's scripts for Node 20 (writeSplitCli), svc's own modules import zod as `import *
 * as z from 'zod'` instead, the same names, which esbuild binds directly and keeps only what is used.
 * (Placed before sdkImportsByModule, whose rewrite it applies too.)
 */
const zodNamespaceImports = {
  name: 'zod-namespace-imports',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/](host|harness|app|sdk)[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const own = /[\\/](host|harness|app)[\\/]src[\\/]/.test(args.path) ? (sdkImportsRewritten(source) ?? source) : source;
      const contents = own.replace(/^import \{ z \} from 'zod';$/m, "import * as z from 'zod';");
      return contents === source ? undefined : { contents, loader: 'ts', resolveDir: dirname(args.path) };
    });
  },
};

const hostEntries = {
  svc: 'app/src/main.ts',
  // A hardened provider's process (process-pool.ts): Node reads only this file and the provider's package.
  'provider-process': 'host/src/features/extensions/runtime/process-bootstrap.ts',
  // `svc mcp` has its own bundle: an MCP client starts it often and waits for it, so it loads only
  // the MCP server and the operations (host/bin/svc.cjs picks it).
  mcp: 'app/src/mcp-main.ts',
  // The process that holds the task terminals' PTYs apart from `svc serve` (features/terminals/holder).
  'terminal-holder': 'host/src/features/terminals/holder/holder-main.ts',
};
const present = Object.fromEntries(Object.entries(hostEntries).filter(([, file]) => existsSync(join(root, file))));
if (Object.keys(present).length > 0) {
  const hostBuild = {
    entryPoints: present,
    outdir: join(root, 'host/dist'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Pure-JS dependencies are bundled (one file parses far faster than hundreds of small modules at
    // every `svc` start); native addons and piscina (which loads its own worker file) stay external,
    // and so does libsql's native package (its index.js is bundled: libsqlWithoutProbes).
    external: EXTERNAL_PACKAGES,
    // The SDK is a workspace package of TypeScript sources: bundle it rather than import it at run time.
    alias: { '@svc-org/ai-sdk': join(root, 'sdk/src/index.ts') },
    loader: { '.sql': 'text' },
    plugins: [precompiledSchemaValidators, precompiledMetaSchemaValidator, globalProcess, libsqlWithoutProbes, requiredOnUse, zodEnglishOnly, prebuiltToolListings, sdkImportsByModule],
    sourcemap: 'linked',
    logLevel: 'warning',
    banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" },
  };
  await build(hostBuild);
  for (const name of Object.keys(present)) {
    const file = join(root, 'host/dist', `${name}.mjs`);
    await writeFile(file, asciiComments(await readFile(file, 'utf8')));
  }
  await writeScriptVariants(hostBuild, ['svc', 'mcp'].filter((name) => name in present));
  if ('provider-process' in present) await writeProviderSnapshotBuilder(hostBuild);
  if ('svc' in present) await writeSplitCli(hostBuild);
  await writeWorkerScript(hostBuild);
  await writeDatabaseTemplate(root);
}

/**
 * A provider's worker thread (piscina, provider-pools.ts) runs host/dist/worker.cjs: CommonJS, which
 * piscina's worker requires as it is, so the thread sets up no ES module before the provider's entry
 * (require-entry.ts). The built-ins it uses load as it starts, required directly.
 */
async function writeWorkerScript(hostBuild) {
  const file = join(root, 'host/dist/worker.cjs');
  await build({
    ...hostBuild,
    entryPoints: { worker: join(root, 'host/src/features/extensions/runtime/worker-bootstrap.ts') },
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    plugins: hostBuild.plugins.filter((plugin) => plugin !== requiredOnUse),
    banner: {},
  });
  await writeFile(file, asciiComments(await readFile(file, 'utf8')));
}

/**
 * What `svc` runs (host/bin/svc.cjs): the entry of svc.mjs, split by esbuild at every dynamic import
 * into host/dist/cli/. A command reads, compiles and sets up the chunks it loads, not the whole CLI:
 * `svc task list` leaves the other commands, the extension machinery, the harness and the service's
 * client on disk. svc.mjs stays whole, for what runs one file (its script variant, a copy for an
 * upgrade, `node host/dist/svc.mjs`). Node 20 runs the chunks' script variants (each chunk in
 * CommonJS form, its imports taken through the `require` it is given; the chunks always loaded
 * together in one `.vm.js` script, see loadGroups) with a code cache of its own (the launcher, host/bin/svc.cjs).
 */
async function writeSplitCli(hostBuild) {
  const { mkdir, rm } = await import('node:fs/promises');
  const { transform } = await import('esbuild');
  const outdir = join(root, 'host/dist/cli');
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  const split = { ...hostBuild, entryPoints: { svc: hostBuild.entryPoints.svc }, outdir, splitting: true, chunkNames: '[name]-[hash]', write: false };
  for (const file of (await build(split)).outputFiles) {
    await writeFile(file.path, file.path.endsWith('.mjs') ? sharedModuleViews(basename(file.path), asciiComments(file.text), true) : file.contents);
  }
  const { outputFiles, metafile } = await build({ ...split, plugins: [zodNamespaceImports, ...split.plugins], metafile: true, outExtension: { '.js': '.vm.js' }, sourcemap: false, banner: {}, define: { 'import.meta.url': '__svcImportMetaUrl' } });
  const groups = loadGroups(metafile, 'svc.vm.js');
  const groupOf = new Map(groups.flatMap((group) => group.members.map((member) => [member, group.file])));
  // A chunk's imports name the chunk and the file whose script holds it: `./<file>#<chunk>`.
  const specifier = (chunk) => {
    const file = groupOf.get(chunk);
    if (!file) throw new Error(`${chunk} is imported but was not written`);
    return JSON.stringify(`./${file}#${chunk.slice(0, -'.vm.js'.length)}`);
  };
  const code = new Map();
  for (const file of outputFiles) {
    // A dynamic import of a chunk requires it (the runner loads chunks through `require`), a step later
    // as import() would. A chunk's exports are the object of getters esbuild makes for them, not a
    // copy of it with a getter over each getter: chunks read each other's bindings often.
    const { code: cjs } = await transform(file.text, { format: 'cjs', target: 'node20', platform: 'node', logLevel: 'warning' });
    code.set(
      basename(file.path),
      cjs
        .replace(/\bimport\("\.\/([\w-]+\.vm\.js)"\)/g, (_, chunk) => `Promise.resolve().then(() => require(${specifier(chunk)}))`)
        .replace(/\brequire\("\.\/([\w-]+\.vm\.js)"\)/g, (_, chunk) => `require(${specifier(chunk)})`)
        .replace(/^module\.exports = __toCommonJS\((\w+)\);$/m, 'module.exports = $1;'),
    );
  }
  for (const [name, cjs] of code) code.set(name, sharedModuleViews(name, cjs, false));
  for (const { file, members } of groups) {
    const path = join(outdir, file);
    const functions = members.map((member) => `${JSON.stringify(member.slice(0, -'.vm.js'.length))}: ${scriptFunction(path, code.get(member), 'function (exports, require, module, __svcImportMetaUrl, __svcModuleViews) {')}`);
    await writeScript(path, `({\n${functions.join(',\n')}\n})`);
  }
}

/**
 * esbuild's `__toESM` gives a module that imports a CommonJS module or a Node built-in a view of its
 * exports: a new object with a getter for each of them (node:fs has about a hundred), made again in
 * every module that imports it. In the split CLI a view is made once per imported module and shared,
 * as an ES module's namespace is one object however many modules import it: in the ES module chunks
 * by the one chunk that holds the helper, in the scripts for Node 20 (each chunk has its own copy of
 * the helper) through `__svcModuleViews`, a WeakMap the runner gives every chunk. The helper stays
 * on its one line, so a source map still places what follows. A helper esbuild writes differently
 * fails the build.
 */
function sharedModuleViews(name, code, ownViews) {
  const helper = /^var (__toESM\d*) = \(mod, isNodeMode, target\) => \(target = mod != null \? __create\(__getProtoOf\(mod\)\) : \{\}, __copyProps\d*\($/gm;
  if ([...code.matchAll(helper)].length !== (code.match(/^var __toESM\d* = /gm) ?? []).length) throw new Error(`${name}: esbuild's __toESM is no longer written as sharedModuleViews expects`);
  return code.replace(helper, (line, helperName) => {
    const copy = `${helperName}Copy`;
    return (
      (ownViews ? 'var __svcModuleViews = new WeakMap(); ' : '') +
      `var ${helperName} = (mod, isNodeMode) => { if (!isNodeMode || Object(mod) !== mod) return ${copy}(mod, isNodeMode); let view = __svcModuleViews.get(mod); ` +
      `if (view === undefined) __svcModuleViews.set(mod, (view = ${copy}(mod, isNodeMode))); return view; }; ` +
      line.replace(`var ${helperName} =`, `var ${copy} =`)
    );
  });
}

/**
 * The chunks of a split bundle that are always loaded together, each set written as one script
 * (`file`, named after the entry or dynamically imported chunk among its members where there is one):
 * a start then reads and compiles one script where it took several, and the chunks of each are still
 * evaluated one by one, when first required. A chunk is loaded with each chunk that imports it
 * dynamically (an "entry") whose static imports reach it; an entry that can only be imported once
 * another is loaded adds nothing to that, so the chunks whose remaining entries are the same form a set.
 * Every chunk the entry itself reaches is one set with it: the entry runs at every start.
 */
function loadGroups(metafile, entry) {
  const outputs = new Map(Object.entries(metafile.outputs).filter(([path]) => path.endsWith('.vm.js')).map(([path, output]) => [basename(path), output]));
  const imported = (name, kind) => outputs.get(name).imports.filter((edge) => edge.kind === kind && !edge.external).map((edge) => basename(edge.path));
  const loaders = new Map();
  for (const name of outputs.keys()) for (const target of imported(name, 'dynamic-import')) loaders.set(target, [...(loaders.get(target) ?? []), name]);
  const entries = [entry, ...[...loaders.keys()].filter((name) => name !== entry).sort()];
  // The chunks each entry loads with it: itself and what its static imports reach.
  const reached = new Map(entries.map((start) => {
    const seen = new Set([start]);
    for (const name of seen) for (const next of imported(name, 'import-statement')) seen.add(next);
    return [start, seen];
  }));
  const entriesOf = new Map([...outputs.keys()].map((name) => [name, entries.filter((start) => reached.get(start).has(name))]));
  // The entries each one is only ever loaded after (itself included): a greatest fixed point.
  const after = new Map(entries.map((name) => [name, new Set(name === entry ? [entry] : entries)]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const name of entries.slice(1)) {
      const before = new Set(after.get(name));
      for (const loader of loaders.get(name)) for (const start of entriesOf.get(loader)) for (const known of before) if (!after.get(start).has(known)) before.delete(known);
      before.add(name);
      if (before.size !== after.get(name).size) {
        after.set(name, before);
        changed = true;
      }
    }
  }
  const sets = new Map();
  for (const name of [...outputs.keys()].sort()) {
    const starts = entriesOf.get(name);
    // An entry loaded only after another entry of the list adds nothing (of two loaded only after each other, the first stays).
    const key = starts.filter((start) => !starts.some((other) => other !== start && after.get(start).has(other) && !(after.get(other).has(start) && starts.indexOf(other) > starts.indexOf(start)))).join(' ');
    sets.set(key, [...(sets.get(key) ?? []), name]);
  }
  return [...sets.values()].map((members) => {
    const lead = members.find((name) => name === entry) ?? members.find((name) => loaders.has(name)) ?? members[0];
    // The lead's code first: read from the top, a set begins with what runs first.
    return { file: lead, members: [lead, ...members.filter((name) => name !== lead)] };
  });
}

/**
 * The script `node --build-snapshot` runs to make a hardened provider process's start-up snapshot
 * (host/dist/provider-snapshot.cjs; the host builds the snapshot, provider-snapshot.ts): CommonJS, as
 * the snapshot builder requires. Node's modules that its snapshots do not support yet are taken at
 * their first use, when the process runs, not while the snapshot is built.
 */
async function writeProviderSnapshotBuilder(hostBuild) {
  const SNAPSHOT_MODULES = new Set(['buffer', 'crypto', 'events', 'fs', 'net', 'os', 'path', 'stream', 'string_decoder', 'timers', 'url', 'util', 'v8']);
  const atFirstUse = {
    name: 'builtins-at-first-use',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^(node:)?[a-z_]+(\/[a-z_]+)?$/ }, (args) => {
        const name = args.path.replace(/^node:/, '');
        if (!isBuiltin(name) || SNAPSHOT_MODULES.has(name)) return undefined;
        return { path: `node:${name}`, namespace: 'builtins-at-first-use' };
      });
      // Each export a getter that loads the module (the names as the building Node has them).
      pluginBuild.onLoad({ filter: /.*/, namespace: 'builtins-at-first-use' }, (args) => ({
        contents:
          `let loaded;\nconst get = () => (loaded ??= process.getBuiltinModule(${JSON.stringify(args.path)}));\n` +
          `for (const key of ${JSON.stringify(Object.keys(createRequire(import.meta.url)(args.path)))}) Object.defineProperty(module.exports, key, { get: () => get()[key], enumerable: true });\n`,
        loader: 'js',
      }));
    },
  };
  await build({
    ...hostBuild,
    entryPoints: { 'provider-snapshot': 'host/src/features/extensions/runtime/process-snapshot.ts' },
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    banner: {},
    sourcemap: false,
    external: [],
    plugins: [atFirstUse, sdkImportsByModule],
  });
}

/**
 * esbuild writes every string and identifier in ASCII but keeps the comments it copies as they are,
 * and one "—" in a comment makes Node read the whole bundle as a two-byte string: about 10 ms more
 * at every start to decode it, and twice the memory. A comment line's other characters become
 * `\uXXXX` (a line that is not a comment is left as it is: there such an escape could mean something).
 */
function asciiComments(text) {
  return text.replace(/^[ \t]*(?:\/\/|\/\*|\*).*[^\x00-\x7f].*$/gm, (line) =>
    line.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

/**
 * Node 20 has no `module.enableCompileCache`: there, host/bin/svc.cjs runs `<entry>.vm.js` through
 * `vm.Script` with a V8 code cache instead of importing the ES module (the launcher, host/bin/svc.cjs).
 * The same bundle as a script: one async function (the entries await at their top) taking the
 * `require` and `import.meta.url` the module would have had, named by a hash of its content on the
 * first line so that a cache made for other code is never offered to it.
 */
async function writeScriptVariants(options, names) {
  const { outputFiles } = await build({
    ...options,
    entryPoints: Object.fromEntries(names.map((name) => [name, options.entryPoints[name]])),
    outExtension: { '.js': '.vm.js' },
    write: false,
    sourcemap: false,
    banner: {},
    define: { 'import.meta.url': '__svcImportMetaUrl' },
  });
  for (const file of outputFiles) await writeScript(file.path, `(${scriptFunction(file.path, file.text, 'async function (require, __svcImportMetaUrl) {')})`);
}

/** `code` as the body of the function that `head` opens, refused if it keeps module syntax. */
function scriptFunction(path, code, head) {
  // What esbuild writes for an import or export it keeps (the scaffold's templates hold lines like these, but with single quotes).
  if (/^import [^\n]* from "[^"]+";$|^export \{[^}\n]*\};$/m.test(code) || code.includes('import.meta') || /\bimport\("\.\//.test(code)) {
    throw new Error(`${path} keeps module syntax: it cannot run as a script`);
  }
  return `${head}\n"use strict";\n${asciiComments(code)}\n}`;
}

/** A script variant, refused if it is not ASCII outside its comments, its content hash on the first line. */
async function writeScript(path, body) {
  const { createHash } = await import('node:crypto');
  // host/bin/svc.cjs reads it as Latin-1, which is the same text only for ASCII.
  const beyond = /^.*[^\x00-\x7f].*$/m.exec(body);
  if (beyond) throw new Error(`${path} is not ASCII outside its comments: ${beyond[0].trim().slice(0, 120)}`);
  await writeFile(path, `// svc-vm ${createHash('sha256').update(body).digest('hex').slice(0, 16)}\n${body}\n`);
}

// The web UI (web/src, React + xterm.js), bundled for the browser into web/dist and served by
// `svc serve` from the same origin as its API; no CDN at run time.
if (existsSync(join(root, 'web/src/main.tsx'))) {
  const { copyFile, mkdir } = await import('node:fs/promises');
  await build({
    entryPoints: { app: join(root, 'web/src/main.tsx') },
    outdir: join(root, 'web/dist/assets'),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: ['chrome110', 'firefox110', 'safari16'],
    jsx: 'automatic',
    minify: true,
    sourcemap: 'linked',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  await mkdir(join(root, 'web/dist'), { recursive: true });
  await copyFile(join(root, 'web/index.html'), join(root, 'web/dist/index.html'));
}

// Providers shipped in the repository, and the test fixture providers the host's tests load.
for (const providersDir of [join(root, 'extensions/cli-providers'), join(root, 'test/fixtures/providers')]) {
  if (!existsSync(providersDir)) continue;
  for (const name of readdirSync(providersDir).sort()) {
    const dir = join(providersDir, name);
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src/index.ts'))) await buildProvider(dir);
  }
}
