import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer as createHttpServer } from 'node:http';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { fetchCatalogIndex, resolveInstallBounds } from '../../../src/features/extensions/install/index.js';
import { createThrowawayCa, startHttpsServer, type HttpsTestServer, type ThrowawayCa } from '../../../../test/support/throwaway-https.js';

const REPO_ROOT = resolve(import.meta.dirname, '../../../..');
const TOKEN = 'catalog-token-7f3a9c-do-not-leak';

const INDEX = {
  schemaVersion: 1,
  extensions: [
    {
      id: 'acme.alpha',
      publisher: 'acme',
      displayName: 'Alpha',
      description: 'A provider',
      versions: [
        {
          version: '1.0.0',
          permissions: ['process:spawn'],
          compatibility: { svc: '>=0.3.0 <1.0.0', node: '>=20' },
          capabilities: { sessions: { fresh: true, resume: false }, query: { generate: true, stream: true }, models: false },
          artifact: {
            url: 'https://downloads.test/c/artifacts/acme.alpha/1.0.0/acme.alpha-1.0.0.tgz',
            sha256: 'a'.repeat(64),
            integrity: `sha256-${Buffer.alloc(32, 0xa).toString('base64')}`,
            size: 713,
          },
        },
      ],
    },
  ],
};

let scratch: string;
let ca: ThrowawayCa;
let server: HttpsTestServer;
let other: HttpsTestServer;
let endlessBytesSent = 0;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'svc-fetch-index-'));
  await mkdir(join(scratch, 'ca'));
  ca = createThrowawayCa(join(scratch, 'ca'));
  other = await startHttpsServer(ca, (_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(INDEX));
  });
  server = await startHttpsServer(ca, (request, response) => {
    const json = (body: string, status = 200) => {
      response.statusCode = status;
      response.setHeader('content-type', 'application/json');
      response.end(body);
    };
    switch (request.url) {
      case '/c/index.v1.json':
        return json(JSON.stringify(INDEX));
      case '/unauthorized/index.v1.json':
        return json(`{"error":"bad token ${String(request.headers.authorization)}"}`, 401);
      case '/html/index.v1.json':
        return json('<html>not json</html>');
      case '/schema/index.v1.json':
        return json(JSON.stringify({ ...INDEX, extensions: [{ ...INDEX.extensions[0], versions: [{ ...INDEX.extensions[0]!.versions[0], artifact: { url: 'http://downloads.test/a.tgz', size: 1 } }] }] }));
      case '/announced-large/index.v1.json':
        response.setHeader('content-length', 5 * 1024 * 1024);
        response.write('{');
        return;
      case '/endless/index.v1.json': {
        // Chunked, never ends: only the client's bound stops it.
        const chunk = Buffer.alloc(16 * 1024, 0x20);
        const pump = () => {
          while (!response.destroyed && response.write(chunk)) endlessBytesSent += chunk.length;
          if (!response.destroyed) response.once('drain', pump);
        };
        response.write('{"schemaVersion":1,"extensions":[');
        return pump();
      }
      case '/redirect-same/index.v1.json':
        response.writeHead(302, { location: '/c/index.v1.json' });
        return response.end();
      case '/redirect-other/index.v1.json':
        response.writeHead(302, { location: `${other.origin}/c/index.v1.json` });
        return response.end();
      case '/redirect-http/index.v1.json':
        response.writeHead(301, { location: 'http://127.0.0.1:9/c/index.v1.json' });
        return response.end();
      default:
        return json('{}', 404);
    }
  });
});

afterAll(async () => {
  await server?.close();
  await other?.close();
  await rm(scratch, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string; retryable?: boolean; details?: Record<string, unknown>; stack?: string }> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error as { code: string; message: string },
  );
}

function expectNoToken(error: object): void {
  const visible = JSON.stringify({ ...error, message: (error as Error).message, stack: (error as Error).stack, cause: String((error as Error).cause) });
  expect(visible).not.toContain(TOKEN);
}

test('returns the index after checking it against index.v1.schema.json', async () => {
  const before = server.requests.length;
  expect(await fetchCatalogIndex(`${server.origin}/c/index.v1.json`, { ca: ca.caCert })).toEqual(INDEX);
  const request = server.requests[before]!;
  expect(request.headers.accept).toBe('application/json');
  expect(request.headers.authorization).toBeUndefined();
});

test('sends the bearer token to the catalog origin', async () => {
  const before = server.requests.length;
  await fetchCatalogIndex(`${server.origin}/c/index.v1.json`, { ca: ca.caCert, token: TOKEN });
  expect(server.requests[before]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
});

test('refuses an http: URL before connecting', async () => {
  let connections = 0;
  const plain = createHttpServer((_request, response) => response.end(JSON.stringify(INDEX)));
  plain.on('connection', () => connections++);
  await new Promise<void>((done) => plain.listen(0, '127.0.0.1', done));
  const { port } = plain.address() as AddressInfo;
  const error = await failure(fetchCatalogIndex(`http://127.0.0.1:${port}/c/index.v1.json`, { token: TOKEN }));
  await new Promise<void>((done) => plain.close(() => done()));
  expect(error).toMatchObject({ code: 'https_required', message: 'the catalog index URL must use https: (got http:)' });
  expect(connections).toBe(0);
});

test('refuses a URL that carries credentials, without echoing them', async () => {
  const error = await failure(fetchCatalogIndex(`https://user:${TOKEN}@127.0.0.1/c/index.v1.json`));
  expect(error.code).toBe('url_invalid');
  expectNoToken(error);
});

test('refuses a redirect to http:', async () => {
  const error = await failure(fetchCatalogIndex(`${server.origin}/redirect-http/index.v1.json`, { ca: ca.caCert, token: TOKEN }));
  expect(error).toMatchObject({ code: 'https_required', message: 'the catalog index redirect URL must use https: (got http:)' });
});

test('keeps the token on a same-origin redirect and drops it on a redirect to another origin', async () => {
  const before = server.requests.length;
  await fetchCatalogIndex(`${server.origin}/redirect-same/index.v1.json`, { ca: ca.caCert, token: TOKEN });
  expect(server.requests.slice(before).map((r) => [r.path, r.headers.authorization])).toEqual([
    ['/redirect-same/index.v1.json', `Bearer ${TOKEN}`],
    ['/c/index.v1.json', `Bearer ${TOKEN}`],
  ]);
  const otherBefore = other.requests.length;
  expect(await fetchCatalogIndex(`${server.origin}/redirect-other/index.v1.json`, { ca: ca.caCert, token: TOKEN })).toEqual(INDEX);
  expect(other.requests[otherBefore]!.headers.authorization).toBeUndefined();
});

test('refuses an index announced over the bound without reading it', async () => {
  const error = await failure(fetchCatalogIndex(`${server.origin}/announced-large/index.v1.json`, { ca: ca.caCert }));
  expect(error).toMatchObject({ code: 'index_too_large', message: 'the catalog index is over the bound of 4194304 bytes' });
});

test('stops reading an endless index at the bound', async () => {
  const error = await failure(fetchCatalogIndex(`${server.origin}/endless/index.v1.json`, { ca: ca.caCert, maxBytes: 64 * 1024 }));
  expect(error).toMatchObject({ code: 'index_too_large', details: { limit: 64 * 1024 } });
  await new Promise((done) => setTimeout(done, 50));
  // The connection was dropped: the server could only fill the socket buffers, not keep streaming.
  expect(endlessBytesSent).toBeLessThan(16 * 1024 * 1024);
});

test('refuses a body that is not JSON', async () => {
  const error = await failure(fetchCatalogIndex(`${server.origin}/html/index.v1.json`, { ca: ca.caCert }));
  expect(error.code).toBe('index_invalid');
  expect(error.message).toMatch(/^the catalog index is not JSON/);
});

test('refuses JSON that does not match the index schema', async () => {
  const error = await failure(fetchCatalogIndex(`${server.origin}/schema/index.v1.json`, { ca: ca.caCert }));
  expect(error.code).toBe('index_invalid');
  expect(error.message).toContain('/extensions/0/versions/0/artifact');
});

test('reports an HTTP error with its status and without the token', async () => {
  const error = await failure(fetchCatalogIndex(`${server.origin}/unauthorized/index.v1.json`, { ca: ca.caCert, token: TOKEN }));
  expect(error).toMatchObject({ code: 'catalog_fetch_failed', retryable: false, details: { status: 401 } });
  expect(error.message).toBe(`the catalog index: ${server.origin}/unauthorized/index.v1.json answered HTTP 401`);
  expectNoToken(error);
});

test('refuses a server whose certificate no trusted CA signed, without the token', async () => {
  const error = await failure(fetchCatalogIndex(`${server.origin}/c/index.v1.json`, { token: TOKEN }));
  // Trying again does not help; trusting the CA does, and the fix line says how.
  expect(error).toMatchObject({ code: 'catalog_fetch_failed', retryable: false });
  expect(error.message).toMatch(/certificate/);
  expect(error.details?.fix).toMatch(/NODE_EXTRA_CA_CERTS=/);
  expectNoToken(error);
});

test('refuses an index bound that is not a positive integer', async () => {
  await expect(fetchCatalogIndex(`${server.origin}/c/index.v1.json`, { maxBytes: 0 })).rejects.toMatchObject({
    code: 'install_bounds_invalid',
    message: 'bounds.maxIndexBytes must be a positive integer (got 0)',
  });
  expect(() => resolveInstallBounds({ maxEntries: 1.5 })).toThrow('bounds.maxEntries must be a positive integer (got 1.5)');
  expect(() => resolveInstallBounds({ maxUnpackedBytes: -1 })).toThrow('bounds.maxUnpackedBytes must be a positive integer (got -1)');
  expect(() => resolveInstallBounds({ maxArtifactBytes: Number.NaN })).toThrow('bounds.maxArtifactBytes must be a positive integer (got NaN)');
  expect(resolveInstallBounds({ maxEntries: 10 })).toEqual({ maxIndexBytes: 4194304, maxArtifactBytes: 33554432, maxUnpackedBytes: 134217728, maxEntries: 10 });
});

test('trusts a CA given through NODE_EXTRA_CA_CERTS, as the host process would', async () => {
  // NODE_EXTRA_CA_CERTS is read once at process start, so this runs in a child process.
  const script = join(scratch, 'fetch-index.mjs');
  await build({
    stdin: {
      contents: `import { fetchCatalogIndex } from './host/src/features/extensions/install/index.ts';
        fetchCatalogIndex(process.argv[2]).then(
          (index) => console.log(JSON.stringify({ ok: index.extensions[0].id })),
          (error) => console.log(JSON.stringify({ code: error.code })),
        );`,
      resolveDir: REPO_ROOT,
      loader: 'ts',
    },
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'esm',
    alias: { '@svc-org/ai-sdk': join(REPO_ROOT, 'sdk/src/index.ts') },
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  // Asynchronous: the HTTPS server answering the child lives in this process.
  const run = async (extra: Record<string, string>) => {
    const env = { ...process.env, ...extra };
    if (!('NODE_EXTRA_CA_CERTS' in extra)) delete env.NODE_EXTRA_CA_CERTS;
    const { stdout } = await promisify(execFile)(process.execPath, [script, `${server.origin}/c/index.v1.json`], { env, encoding: 'utf8' });
    return JSON.parse(stdout) as unknown;
  };
  expect(await run({ NODE_EXTRA_CA_CERTS: ca.caCertFile })).toEqual({ ok: 'acme.alpha' });
  expect(await run({})).toEqual({ code: 'catalog_fetch_failed' });
});
