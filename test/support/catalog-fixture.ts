// A catalog as a publisher makes it, for install tests: a throwaway repository with the real catalog
// schemas, declarations and small working providers over test/fixtures/clis/svc-echo-cli, built with
// the real `pnpm extensions:catalog:build` (with --skip-checks: these fixture providers have no tests
// of their own) and served over HTTPS with a throwaway CA.
import { spawnSync } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, normalize, sep } from 'node:path';
import { signCatalogIndex } from '@svc-org/catalog/sign-catalog-index';
import type { WrittenCatalogKeyPair } from '@svc-org/catalog/write-catalog-key-pair';
import { REPO_ROOT } from './svc-process.js';
import { createThrowawayCa, startHttpsServer, type HttpsTestServer, type ThrowawayCa } from './throwaway-https.js';

export interface FixtureRelease {
  /** Folder under extensions/cli-providers/ (one per version). */
  folder: string;
  id: string;
  version: string;
  permissions: string[];
  /** Default `{ svc: '>=0.3.0 <1.0.0', node: '>=20', cli: '>=1.0.0 <2.0.0' }`. */
  compatibility?: { svc: string; node: string; cli?: string };
  /** Default: `svc-echo-cli` on PATH, probed with `--version`. */
  command?: { default: string; aliases: string[]; knownPaths: Record<string, string[]>; versionArgs: string[] };
}

/**
 * `node -e <this> <file> <version>` writes `<file>.started` (holding the version) and waits until
 * `<file>` exists, or until the process that started it is gone: a call left waiting when its test
 * failed, or killed, does not leave this behind polling for ever.
 */
export const WAIT_FOR_FILE_SCRIPT =
  "const fs = require('fs'); const [f, v] = process.argv.slice(1); const parent = process.ppid; fs.writeFileSync(f + '.started', v); const t = setInterval(() => { if (fs.existsSync(f) || process.ppid !== parent) clearInterval(t); }, 20);";

/**
 * The provider answers a query with one line per word of `v<version> <prompt>` (through svc-echo-cli,
 * so it needs `process:spawn`), and `wait-for <file>` writes `<file>.started`, then waits until
 * `<file>` exists before it answers `v<version> waited` (to hold a call open across an update).
 */
function providerSource(version: string): string {
  const sdk = join(REPO_ROOT, 'sdk/src/index.ts');
  return `import { BaseCliAdapter, collectCliQueryStream, defineCliPlugin, readLines } from ${JSON.stringify(sdk)};

const VERSION = ${JSON.stringify(version)};

class CatalogEchoAdapter extends BaseCliAdapter {
  buildSessionProcess(request, ctx) {
    return { command: ctx.cli.command, args: ['--interactive'], cwd: request.cwd, envPatch: {} };
  }

  async generate(request, ctx) {
    return collectCliQueryStream(this.stream(request, ctx));
  }

  async *stream(request, ctx) {
    if (request.prompt.startsWith('wait-for ')) {
      // Through the Host Context, so it works in the hardened mode too (no file access of its own).
      const file = request.prompt.slice('wait-for '.length);
      await ctx.host.process.run({ command: process.execPath, args: ['-e', ${JSON.stringify(WAIT_FOR_FILE_SCRIPT)}, file, VERSION] }, { signal: ctx.signal });
      yield { type: 'text', text: 'v' + VERSION + ' waited\\n' };
      yield { type: 'finish', finishReason: 'stop' };
      return;
    }
    const child = await ctx.host.process.spawn(
      { command: ctx.cli.command, args: ['--say', 'v' + VERSION + ' ' + request.prompt], cwd: request.cwd },
      { signal: ctx.signal },
    );
    for await (const line of readLines(child.stdout)) yield { type: 'text', text: line + '\\n' };
    const exit = await child.exited;
    yield { type: 'finish', finishReason: exit.exitCode === 0 ? 'stop' : 'error' };
  }
}

export const svcCliPlugin = defineCliPlugin({ createAdapter: () => new CatalogEchoAdapter() });
`;
}

export async function makeCatalogFixtureRepo(root: string, releases: FixtureRelease[]): Promise<void> {
  const schemaDir = join(root, 'extensions/catalog/schema');
  await mkdir(schemaDir, { recursive: true });
  await mkdir(join(root, 'extensions/catalog/sources'), { recursive: true });
  for (const name of ['declaration.v1.schema.json', 'index.v1.schema.json']) {
    await copyFile(join(REPO_ROOT, 'extensions/catalog/schema', name), join(schemaDir, name));
  }
  for (const release of releases) {
    const dir = join(root, 'extensions/cli-providers', release.folder);
    await mkdir(join(dir, 'src'), { recursive: true });
    const publisher = release.id.slice(0, release.id.indexOf('.'));
    const pkg = {
      name: `@${publisher}/svc-provider-${release.id.slice(release.id.indexOf('.') + 1)}`,
      version: release.version,
      description: 'catalog install test provider',
      type: 'module',
      private: true,
      exports: { './svc-cli-provider': './dist/svc-cli-provider.js' },
      files: ['dist', 'config.schema.json'],
      scripts: { build: 'node ../../../scripts/build-provider.mjs' },
      dependencies: { '@svc-org/ai-sdk': 'workspace:*' },
      svc: {
        id: release.id,
        publisher,
        manifestVersion: 1,
        apiVersion: '1.0',
        kind: 'cli-provider',
        display: { name: 'Catalog Echo (test)', description: `catalog install test provider ${release.version}` },
        command: release.command ?? { default: 'svc-echo-cli', aliases: [], knownPaths: {}, versionArgs: ['--version'] },
        compatibility: release.compatibility ?? { svc: '>=0.3.0 <1.0.0', node: '>=20', cli: '>=1.0.0 <2.0.0' },
        capabilities: { sessions: { fresh: true, resume: false }, query: { generate: true, stream: true }, models: false },
        permissions: release.permissions,
        configSchema: 'config.schema.json',
      },
    };
    await writeFile(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    await writeFile(
      join(dir, 'config.schema.json'),
      `${JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', additionalProperties: false, properties: {} }, null, 2)}\n`,
    );
    await writeFile(join(dir, 'src/index.ts'), providerSource(release.version));
    const declaration = { $schema: '../schema/declaration.v1.schema.json', id: release.id, publisher, version: release.version, provider: release.folder };
    await writeFile(join(root, 'extensions/catalog/sources', `${release.folder}.json`), `${JSON.stringify(declaration, null, 2)}\n`);
  }
}

/**
 * `pnpm extensions:catalog:build -- --root <root> --skip-checks --base-url <baseUrl> --output <output> [extra…]`,
 * as a publisher runs it: the script's own command, without pnpm's start in front of it (a second of
 * CPU at each of the many builds the tests make; catalog/test/catalog-cli.test.ts runs it through pnpm).
 */
export function runCatalogBuild(root: string, baseUrl: string, output: string, extra: string[] = []): void {
  const env = { ...process.env };
  // What pnpm sets for the script: the folder it was started in, which relative paths resolve against.
  env.INIT_CWD = REPO_ROOT;
  const script = join(REPO_ROOT, 'catalog/bin/build-catalog.mjs');
  const run = spawnSync(process.execPath, [script, '--root', root, '--skip-checks', '--base-url', baseUrl, '--output', output, ...extra], {
    cwd: REPO_ROOT,
    env,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`catalog build failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
}

export interface CatalogServer extends HttpsTestServer {
  /** `https://127.0.0.1:<port>/catalog` */
  baseUrl: string;
  /** Replaces the bytes served at a path below the base URL (e.g. a corpus archive as an artifact). */
  override(path: string, body: Buffer | undefined): void;
  /** When set, requests without `Authorization: Bearer <token>` get 401. */
  requireToken(token: string | undefined): void;
  /** When set, the file at this path below the base URL sends half its bytes and then stalls. */
  stall(path: string | undefined): void;
}

/** Serves `dir` below /catalog/ over HTTPS; every file with its Content-Length. */
export async function serveCatalog(ca: Pick<ThrowawayCa, 'serverKey' | 'serverCert'>, dir: string): Promise<CatalogServer> {
  const overrides = new Map<string, Buffer>();
  let token: string | undefined;
  let stalled: string | undefined;
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    if (token !== undefined && request.headers.authorization !== `Bearer ${token}`) {
      response.statusCode = 401;
      response.end('{"error":"unauthorized"}');
      return;
    }
    const path = new URL(request.url ?? '/', 'https://127.0.0.1').pathname;
    if (!path.startsWith('/catalog/')) {
      response.statusCode = 404;
      response.end();
      return;
    }
    const relative = decodeURIComponent(path.slice('/catalog/'.length));
    const override = overrides.get(relative);
    const file = normalize(join(dir, relative));
    const body = override ? Promise.resolve(override) : file.startsWith(dir + sep) ? readFile(file) : Promise.reject(new Error('outside'));
    body.then(
      (bytes) => {
        response.setHeader('content-length', bytes.length);
        if (relative === stalled) response.write(bytes.subarray(0, bytes.length >> 1));
        else response.end(bytes);
      },
      () => {
        response.statusCode = 404;
        response.end();
      },
    );
  };
  const server = await startHttpsServer(ca, handle);
  return {
    ...server,
    baseUrl: `${server.origin}/catalog`,
    override(path, body) {
      if (body === undefined) overrides.delete(path);
      else overrides.set(path, body);
    },
    requireToken(value) {
      token = value;
    },
    stall(path) {
      stalled = path;
    },
  };
}

export interface FixtureCatalog {
  ca: ThrowawayCa;
  server: CatalogServer;
  /** Temp folder holding the CA, the repository and the built catalog (`out/`). */
  scratch: string;
  close(): Promise<void>;
}

/** A throwaway CA, an HTTPS server, and a catalog of `releases` built and served below `<origin>/catalog`. */
export async function startFixtureCatalog(releases: FixtureRelease[]): Promise<FixtureCatalog> {
  const scratch = await mkdtemp(join(tmpdir(), 'svc-fixture-catalog-'));
  await mkdir(join(scratch, 'ca'));
  const ca = createThrowawayCa(join(scratch, 'ca'));
  const server = await serveCatalog(ca, join(scratch, 'out'));
  await makeCatalogFixtureRepo(join(scratch, 'repo'), releases);
  runCatalogBuild(join(scratch, 'repo'), server.baseUrl, join(scratch, 'out'));
  return {
    ca,
    server,
    scratch,
    async close() {
      await server.close();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

/** Serves `index` (serialized as the build writes it) instead of the built one, signed by `keys`. */
export function publishSignedIndex(server: CatalogServer, index: object, ...keys: WrittenCatalogKeyPair[]): void {
  const bytes = Buffer.from(`${JSON.stringify(index, null, 2)}\n`);
  server.override('index.v1.json', bytes);
  const privateKeys = keys.map((pair) => createPrivateKey(readFileSync(pair.privateKeyFile, 'utf8')));
  server.override('index.v1.json.sig', Buffer.from(JSON.stringify(signCatalogIndex(bytes, privateKeys))));
}
